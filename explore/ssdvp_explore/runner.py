"""Running a sweep: one ``ssdvp run`` per point, cached by point hash.

The function that runs a point (:func:`run_point`) is self-contained and
returns the point's output files as bytes, so it runs the same in a local
thread pool (each thread drives one ssdvp process) and on a Dask worker; only
the client writes the cache directory:

    <results>/<hash>/point.json      what was asked (base, overrides, merged config, version)
                    /status.json     status (ok | violations | failed), exit code, error, wall time
                    /stderr.txt      the simulator's stderr
                    /summary.json    ssdvp outputs (absent when the run failed)
                    /timeseries.csv
                    /latency_histograms.csv  (only with stats.interval_histograms: true)

A point is done (skipped on re-run) when status.json says ok or violations
(exit 3: the run finished, outputs written, but integrity/flash-rule checks
failed: deterministic, so cached, and reported in the table's error column).
Failed points (other exit codes, timeouts, crashes) are recorded for the table
but run again next time.
"""
from __future__ import annotations

import concurrent.futures as cf
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .sweep import Point, Sweep

OUTPUT_FILES = ("summary.json", "timeseries.csv", "latency_histograms.csv")  # the last: stats.interval_histograms
STDERR_TAIL_LINES = 5
DONE_STATUSES = ("ok", "violations")


class RunnerError(RuntimeError):
    """A problem with the whole sweep (no binary, bad scheduler), not one point."""


def resolve_binary(explicit: str | None, root: Path) -> Path:
    """--ssdvp, else $SSDVP_BIN, else <root>/build/platform/ssdvp."""
    cand = explicit or os.environ.get("SSDVP_BIN") or str(root / "build" / "platform" / "ssdvp")
    p = Path(cand)
    if not p.is_absolute() and os.sep not in cand:
        found = shutil.which(cand)
        p = Path(found) if found else p
    p = p.resolve() if p.exists() else p
    if not (p.is_file() and os.access(p, os.X_OK)):
        raise RunnerError(f"ssdvp binary not found or not executable: {cand} "
                          "(build it, or pass --ssdvp PATH / set SSDVP_BIN)")
    return p


def sim_env() -> dict[str, str]:
    """The environment ssdvp runs in: SystemC's copyright banner off, so that
    outputs and error cells start with ssdvp's own message."""
    return {**os.environ, "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE": "1"}


def ssdvp_version(binary: Path) -> str:
    """The binary's version string (part of every point hash).

    ``ssdvp --version`` when it works; otherwise the sha256 of the binary, so a
    rebuilt simulator never serves stale cached results.
    """
    try:
        r = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30, env=sim_env())
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    from .sweep import file_digest
    return "sha256:" + file_digest(binary)


def binary_identity(binary: Path) -> str:
    """What a cached result depends on in the simulator itself: its version
    string and the sha256 of the binary. ``--version`` alone is the same
    ``<commit>-dirty`` string for every uncommitted edit; the digest is not."""
    from .sweep import file_digest
    v = ssdvp_version(binary)
    digest = "sha256:" + file_digest(binary)
    return v if v == digest else f"{v} {digest}"


def iss_firmware(binary: Path, root: Path) -> tuple[str, str] | None:
    """The RV32 firmware image ``cpu.mode: iss`` loads by default (``cpu.iss.firmware``'s
    default, built next to the simulator) and its sha256, or None without an ISS build."""
    cmd = [str(binary), "params", "--set", "cpu.mode=iss", "--format", "json"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=root)
        data = json.loads(r.stdout) if r.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    rows = data.get("parameters", data) if isinstance(data, dict) else data
    for d in rows if isinstance(rows, list) else []:
        if isinstance(d, dict) and d.get("key") == "cpu.iss.firmware" and d.get("default"):
            p = Path(d["default"]) if os.path.isabs(d["default"]) else root / d["default"]
            if p.is_file():
                from .sweep import file_digest
                return str(p), file_digest(p)
    return None


def ssdvp_params(binary: Path, root: Path, config: str | None = None) -> set[str] | None:
    """The parameter keys ssdvp knows (from ``ssdvp params --format json``), or None if unavailable."""
    cmd = [str(binary), "params", "--format", "json"] + (["-c", config] if config else [])
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=root, env=sim_env())
        if r.returncode != 0:
            return None
        data = json.loads(r.stdout)
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    if isinstance(data, dict) and isinstance(data.get("parameters"), (list, dict)):
        data = data["parameters"]
    if isinstance(data, dict):
        return set(map(str, data))
    if isinstance(data, list):
        keys = {str(d.get("key")) for d in data if isinstance(d, dict) and d.get("key")}
        return keys or None
    return None


def tail(text: str, n: int = STDERR_TAIL_LINES) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join(lines[-n:])


def run_point(spec: dict) -> dict:
    """Run one point (worker side). ``spec``: binary, root, base, overrides, timeout_s, hash.

    Never raises for a simulator failure: returns a result dict with status,
    exit_code, error, stderr and the output files' bytes.
    """
    t0 = time.time()
    res: dict[str, Any] = {"hash": spec["hash"], "host": socket.gethostname(), "files": {},
                           "exit_code": None, "stderr": "", "status": "failed", "error": ""}
    tmp_parent = spec.get("tmp_dir")
    if tmp_parent:
        os.makedirs(tmp_parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f"ssdvp-{spec['hash'][:12]}-", dir=tmp_parent or None)
    try:
        out = os.path.join(tmp, "out")
        cmd = [spec["binary"], "run", "-c", spec["base"]]
        for k, v in spec["overrides"]:
            cmd += ["--set", f"{k}={v}"]
        cmd += ["-o", out, "--quiet"]
        res["command"] = cmd
        try:
            p = subprocess.run(cmd, cwd=spec["root"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=spec.get("timeout_s"), env=sim_env())
            res["exit_code"] = p.returncode
            res["stderr"] = p.stderr.decode(errors="replace")
            if p.stdout:
                res["stdout"] = p.stdout.decode(errors="replace")[-65536:]
        except subprocess.TimeoutExpired as e:
            res["stderr"] = (e.stderr or b"").decode(errors="replace")
            res["error"] = f"timeout after {spec.get('timeout_s')} s"
            return res
        except OSError as e:
            res["error"] = f"cannot run {spec['binary']}: {e}"
            return res
        for name in OUTPUT_FILES:
            f = os.path.join(out, name)
            if os.path.isfile(f):
                with open(f, "rb") as fh:
                    res["files"][name] = fh.read()
        rc = p.returncode
        last = tail(res["stderr"])
        if rc == 0 and "summary.json" in res["files"]:
            res["status"] = "ok"
        elif rc == 0:
            res["error"] = "exit 0 but no summary.json written"
        elif rc == 3 and "summary.json" in res["files"]:
            res["status"] = "violations"
            res["error"] = f"exit 3 (integrity mismatches or flash rule violations): {last}".rstrip(": ")
        elif rc < 0:
            res["error"] = f"killed by signal {-rc}: {last}".rstrip(": ")
        else:
            kind = {2: "config/trace/usage error"}.get(rc, "error")
            res["error"] = f"exit {rc} ({kind}): {last}".rstrip(": ")
        return res
    finally:
        res["wall_s"] = round(time.time() - t0, 3)
        shutil.rmtree(tmp, ignore_errors=True)


def point_dir(results: Path, pt: Point) -> Path:
    return results / pt.hash


def read_status(d: Path) -> dict | None:
    try:
        with open(d / "status.json") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def is_done(d: Path) -> bool:
    st = read_status(d)
    return bool(st) and st.get("status") in DONE_STATUSES and (d / "summary.json").is_file()


def point_record(sweep: Sweep, pt: Point, version: str) -> dict:
    return {"sweep": sweep.name, "hash": pt.hash, "index": pt.index, "base": sweep.base_arg,
            "overrides": pt.overrides, "files": pt.files, "ssdvp_version": version, "config": pt.config}


def persist(results: Path, sweep: Sweep, pt: Point, version: str, res: dict) -> dict:
    """Write a point's directory atomically (tmp dir + rename). Returns its status record."""
    results.mkdir(parents=True, exist_ok=True)
    final = point_dir(results, pt)
    tmp = Path(tempfile.mkdtemp(prefix=f".{pt.hash[:12]}-", dir=results))
    status = {"status": res["status"], "exit_code": res["exit_code"], "error": res["error"],
              "wall_s": res.get("wall_s"), "host": res.get("host"), "command": res.get("command"),
              "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    with open(tmp / "point.json", "w") as f:
        json.dump(point_record(sweep, pt, version), f, indent=1, sort_keys=True)
    with open(tmp / "stderr.txt", "w") as f:
        f.write(res.get("stderr", ""))
    for name, data in res.get("files", {}).items():
        with open(tmp / name, "wb") as f:
            f.write(data)
    with open(tmp / "status.json", "w") as f:
        json.dump(status, f, indent=1, sort_keys=True)
    if final.exists():
        old = final.with_name(f".{pt.hash[:12]}-old-{os.getpid()}-{time.time_ns()}")
        os.replace(final, old)
        os.replace(tmp, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, final)
    return status


def _fmt_s(s: float) -> str:
    s = int(s)
    return f"{s // 3600}h{s % 3600 // 60:02d}m{s % 60:02d}s" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


class Progress:
    """tqdm bar with ETA on a terminal; periodic plain lines otherwise."""

    def __init__(self, total: int, desc: str, stream=None, interval_s: float = 10.0, enable: bool | None = None):
        self.total, self.desc, self.n, self.failed = total, desc, 0, 0
        self.stream = stream or sys.stderr
        self.t0 = self.last = time.time()
        self.interval = interval_s
        self.bar = None
        tty = enable if enable is not None else getattr(self.stream, "isatty", lambda: False)()
        if tty and total:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, desc=desc, unit="pt", file=self.stream, dynamic_ncols=True)
            except ImportError:
                pass

    def write(self, msg: str):
        if self.bar is not None:
            self.bar.write(msg, file=self.stream)
        else:
            print(msg, file=self.stream, flush=True)

    def update(self, ok: bool):
        self.n += 1
        self.failed += 0 if ok else 1
        if self.bar is not None:
            self.bar.update(1)
            if self.failed:
                self.bar.set_postfix(failed=self.failed)
            return
        now = time.time()
        if now - self.last >= self.interval or self.n == self.total:
            self.last = now
            el = now - self.t0
            eta = el / self.n * (self.total - self.n)
            self.write(f"[{self.desc}] {self.n}/{self.total} points ({self.failed} failed), "
                       f"elapsed {_fmt_s(el)}, ETA {_fmt_s(eta)}")

    def close(self):
        if self.bar is not None:
            self.bar.close()


@dataclass
class SweepReport:
    sweep: Sweep
    results: Path
    points: list[Point]
    version: str
    cached: int = 0
    ran: int = 0
    failures: list[tuple[Point, dict]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def default_results(sweep: Sweep) -> Path:
    return sweep.root / "results" / sweep.name


def _ensure_ignored(results: Path):
    """results/ is generated: drop a .gitignore so it never shows up in git status."""
    top = results.parent if results.parent.name == "results" else results
    try:
        top.mkdir(parents=True, exist_ok=True)
        gi = top / ".gitignore"
        if not gi.exists():
            gi.write_text("# generated by ssdvp_explore: cached sweep results\n*\n")
    except OSError:
        pass


def parse_local_scheduler(scheduler) -> int | None:
    """``local`` or ``local:N`` -> N workers (0: one per core); None for anything else."""
    if not isinstance(scheduler, str) or not (scheduler == "local" or scheduler.startswith("local:")):
        return None
    n = scheduler.partition(":")[2]
    if n and not (n.isdigit() and int(n) > 0):
        raise RunnerError(f"--scheduler {scheduler}: expected local or local:N with N a positive number of workers")
    return int(n) if n else 0


def _dask_client(scheduler):
    """A client of the scheduler at that address, or of a new local cluster
    (``local[:N]``: N single-threaded worker processes on this machine,
    closed with the client)."""
    try:
        from distributed import Client
    except ImportError as e:
        raise RunnerError("--scheduler needs the 'distributed' package (python3-distributed)") from e
    n = parse_local_scheduler(scheduler)
    if n is not None:
        from distributed import LocalCluster
        n = n or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=40)
        client = Client(cluster)
        client._ssdvp_cluster = cluster   # closed by _close_client
        return client
    try:
        return Client(scheduler, timeout="30s")
    except OSError as e:
        raise RunnerError(f"cannot connect to Dask scheduler {scheduler}: {e}") from e


def _close_client(client):
    cluster = getattr(client, "_ssdvp_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def _upload_package(client):
    """Make ssdvp_explore importable on the workers (zip uploaded via Client.upload_file)."""
    import zipfile
    pkg = Path(__file__).resolve().parent
    tmpd = tempfile.mkdtemp(prefix="ssdvp-explore-upload-")
    try:
        zpath = Path(tmpd) / "ssdvp_explore.zip"
        with zipfile.ZipFile(zpath, "w") as z:
            for f in sorted(pkg.rglob("*.py")):
                z.write(f, f.relative_to(pkg.parent))
        client.upload_file(str(zpath))
    finally:
        shutil.rmtree(tmpd, ignore_errors=True)


def run_sweep(sweep: Sweep, binary: Path, results: Path | None = None, jobs: int | None = None,
              scheduler: Any = None, force: bool = False, progress: bool | None = None,
              progress_interval_s: float = 10.0, log: Callable[[str], None] | None = None,
              validate: bool = True) -> SweepReport:
    """Run every point not already cached. Failures are recorded, never raised."""
    results = Path(results) if results else default_results(sweep)
    version = binary_identity(binary)
    points = sweep.points(version, firmware=iss_firmware(binary, sweep.root))
    log = log or (lambda m: print(m, file=sys.stderr, flush=True))
    if validate:
        known = ssdvp_params(binary, sweep.root, sweep.base_arg)
        if known:
            bad = sorted({k for p in points for k in p.overrides} - known)
            if bad:
                raise RunnerError(f"{sweep.path}: unknown ssdvp parameter(s): {', '.join(bad)} "
                                  "(see `ssdvp params`)")
    _ensure_ignored(results)
    results.mkdir(parents=True, exist_ok=True)
    rep = SweepReport(sweep=sweep, results=results, points=points, version=version)
    todo = [p for p in points if force or not is_done(point_dir(results, p))]
    rep.cached = len(points) - len(todo)
    local = parse_local_scheduler(scheduler)
    where = None if scheduler is None else (f"a local Dask cluster of {local or 'one worker per core'}"
                                            f"{' workers' if local else ''}" if local is not None
                                            else f"Dask scheduler {scheduler}")
    if jobs is None or jobs < 1:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    log(f"sweep {sweep.name}: {len(points)} points, {rep.cached} cached, {len(todo)} to run "
        f"({where or f'{min(jobs, max(1, len(todo)))} local workers'}); results in {results}")
    if not todo:
        return rep
    specs = {p.hash: {"hash": p.hash, "binary": str(binary), "root": str(sweep.root), "base": sweep.base_arg,
                      "overrides": list(p.overrides.items()), "timeout_s": sweep.timeout_s,
                      "tmp_dir": None if scheduler is not None else str(results / ".tmp")}
             for p in todo}
    by_hash = {p.hash: p for p in todo}
    prog = Progress(len(todo), sweep.name, interval_s=progress_interval_s, enable=progress)

    def done(pt: Point, res: dict):
        st = persist(results, sweep, pt, version, res)
        rep.ran += 1
        ok = st["status"] == "ok"
        if not ok:
            rep.failures.append((pt, st))
            prog.write(f"[{sweep.name}] point {pt.hash[:12]} ({pt.label(sweep.axis_keys)}) "
                       f"{st['status']}: {st['error']}")
        prog.update(ok)

    def crashed(pt: Point, exc: BaseException) -> dict:
        return {"hash": pt.hash, "status": "failed", "exit_code": None, "files": {}, "stderr": "",
                "error": f"{type(exc).__name__}: {exc}"}

    try:
        if scheduler is not None:
            client = scheduler if hasattr(scheduler, "submit") else _dask_client(scheduler)
            owns = client is not scheduler
            try:
                from distributed import as_completed
                _upload_package(client)
                futs = {client.submit(run_point, specs[h], key=f"ssdvp-{sweep.name}-{h[:16]}-{time.time_ns()}",
                                      pure=False): h for h in specs}
                try:
                    for fut in as_completed(futs):
                        pt = by_hash[futs[fut]]
                        try:
                            res = fut.result()
                        except Exception as e:  # worker died, lost, package missing ...
                            res = crashed(pt, e)
                        done(pt, res)
                except BaseException:
                    client.cancel(list(futs))
                    raise
            finally:
                if owns:
                    _close_client(client)
        else:
            with cf.ThreadPoolExecutor(max_workers=min(jobs, len(todo))) as ex:
                futs = {ex.submit(run_point, specs[h]): h for h in specs}
                try:
                    for fut in cf.as_completed(futs):
                        pt = by_hash[futs[fut]]
                        try:
                            res = fut.result()
                        except Exception as e:
                            res = crashed(pt, e)
                        done(pt, res)
                except BaseException:
                    for f in futs:
                        f.cancel()
                    raise
    finally:
        prog.close()
        shutil.rmtree(results / ".tmp", ignore_errors=True)
    return rep
