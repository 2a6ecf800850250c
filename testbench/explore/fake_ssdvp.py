#!/usr/bin/env python3
"""A test double of the ssdvp command, following the simulator contract exactly.

    fake_ssdvp.py --version
    fake_ssdvp.py run -c CONFIG.yaml [--set key=value]... [-o OUTDIR] [--quiet]
    fake_ssdvp.py params [-c CONFIG] [--format markdown|json]

Writes OUTDIR/summary.json and OUTDIR/timeseries.csv atomically; exit 0 ok,
2 config/trace/usage error (message on stderr naming the file or key), 3 run
finished with integrity mismatches (outputs written). Metrics are a
deterministic function of the config (and the trace's bytes).

Test-only knobs (parameters of the double, not of ssdvp):
  fake.fail=N      exit with N (2: a config error; 3: violations, outputs written;
                   -11: die of SIGSEGV; other: plain exit N)
  fake.sleep_s=X   sleep X seconds before finishing
  fake.extra=1     add an unknown nested metric (the table must pick it up)
Env FAKE_SSDVP_LOG=FILE appends one line per `run` (lets tests count runs);
env FAKE_SSDVP_FIRMWARE=PATH is the default of cpu.iss.firmware.
"""
import argparse
import hashlib
import json
import os
import signal
import sys
import time

import yaml

VERSION = "0.1.0-fake"
PARAMS = [
    # key, type, default, description
    ("flash.timing.read", "duration", "20us", "page read time"),
    ("ftl.gc.policy", "enum", "greedy", "GC victim policy: greedy|fifo|random|cost_benefit|dchoices"),
    ("ftl.gc.threshold", "float", "0.05", "free-block fraction that starts GC"),
    ("workload.trace", "path", "", "ASCII trace to replay (empty: synthetic)"),
    ("workload.synthetic.pattern", "enum", "uniform", "synthetic access pattern"),
    ("workload.synthetic.requests", "int", "1000", "synthetic request count"),
    ("workload.synthetic.seed", "int", "1", "synthetic workload seed"),
    ("cpu.mode", "enum", "native", "controller CPU: native|iss"),
    ("cpu.iss.firmware", "path", os.environ.get("FAKE_SSDVP_FIRMWARE", ""), "RV32 firmware image (iss)"),
    ("fake.fail", "int", "0", "test double: exit code to fail with"),
    ("fake.sleep_s", "float", "0", "test double: sleep before finishing"),
    ("fake.extra", "int", "0", "test double: emit an extra metric"),
]
DEFAULTS = {k: d for k, _, d, _ in PARAMS}
POLICY_WAF = {"greedy": 1.6, "fifo": 2.1, "random": 2.3, "cost_benefit": 1.5, "dchoices": 1.7}


def die(msg, code=2):
    print(f"ssdvp: {msg}", file=sys.stderr)
    sys.exit(code)


def flatten(tree, prefix=""):
    out = {}
    for k, v in tree.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            out.update(flatten(v, key))
        else:
            out[key] = "true" if v is True else "false" if v is False else "" if v is None else str(v)
    return out


def resolve(config, sets):
    cfg = dict(DEFAULTS)
    if config:
        try:
            with open(config) as f:
                tree = yaml.safe_load(f) or {}
        except OSError as e:
            die(f"{config}: {e.strerror}")
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            die(f"{config}:{mark.line + 1 if mark else 0}: {e}")
        for k, v in flatten(tree).items():
            if k not in DEFAULTS:
                die(f"{config}: unknown parameter '{k}'")
            cfg[k] = v
    for s in sets or []:
        if "=" not in s:
            die(f"--set {s}: expected key=value")
        k, v = s.split("=", 1)
        if k not in DEFAULTS:
            die(f"--set {k}: unknown parameter '{k}'")
        cfg[k] = v
    return cfg


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def cmd_run(a):
    t0 = time.time()
    cfg = resolve(a.config, a.set)
    if os.environ.get("FAKE_SSDVP_LOG"):
        with open(os.environ["FAKE_SSDVP_LOG"], "a") as f:
            f.write(json.dumps({k: cfg[k] for k in sorted(cfg)}) + "\n")
    fail = int(cfg["fake.fail"])
    if fail == 2:
        die(f"{a.config}: ftl.gc.policy: injected config error")
    if fail < 0:
        os.kill(os.getpid(), -fail)
    trace_bytes = b""
    if cfg["workload.trace"]:
        try:
            with open(cfg["workload.trace"], "rb") as f:
                trace_bytes = f.read()
        except OSError:
            die(f"workload.trace: {cfg['workload.trace']}: not found")
    if cfg["ftl.gc.policy"] not in POLICY_WAF:
        die(f"ftl.gc.policy: unknown policy '{cfg['ftl.gc.policy']}'")
    time.sleep(float(cfg["fake.sleep_s"]))
    h = hashlib.sha256(json.dumps(cfg, sort_keys=True).encode() + trace_bytes).digest()
    jitter = h[0] / 2550.0
    n = int(cfg["workload.synthetic.requests"]) if not trace_bytes else len(trace_bytes.splitlines())
    waf = round(POLICY_WAF[cfg["ftl.gc.policy"]] + jitter, 4)
    writes = n * 7 // 10
    reads = n - writes
    sim_t = round(0.001 * n * (1 + waf / 10), 6)

    def lat(base):
        m = round(base * (1 + waf / 4), 3)
        count = reads if base < 100 else writes
        # the distribution as ssdvp exports it: [lo, hi, count] buckets (us)
        edges = [m * 0.5 * 1.25 ** i for i in range(12)]
        weights = [1, 3, 8, 14, 18, 16, 12, 8, 5, 3, 2]
        counts = [count * w // sum(weights) for w in weights]
        counts[4] += count - sum(counts)
        hist = [[round(a, 3), round(b, 3), c] for a, b, c in zip(edges, edges[1:], counts) if c]
        return {"count": count, "mean": m, "p50": round(m * 0.9, 3), "histogram": hist,
                "p99": round(m * 3, 3), "p999": round(m * 6, 3), "p9999": round(m * 9, 3), "max": round(m * 12, 3)}
    summary = {
        "ssdvp_version": VERSION,
        "config": cfg,
        "workload": {"description": f"synthetic {cfg['workload.synthetic.pattern']}" if not trace_bytes
                     else os.path.basename(cfg["workload.trace"]), "requests": n},
        "host": {"reads": reads, "writes": writes, "trims": 0, "flushes": 0, "errors": 0,
                 "read_bytes": reads * 4096, "write_bytes": writes * 4096, "sim_time_s": sim_t,
                 "iops": round(n / sim_t, 3), "bandwidth_mbps": round(n * 4096 / sim_t / 1e6, 3)},
        "latency_us": {"read": lat(60.0), "write": lat(200.0)},
        "ftl": {"waf": waf, "host_lba_writes": writes, "gc_lba_writes": int(writes * (waf - 1)),
                "gc_runs": int(writes * (waf - 1)) // 64, "erases": int(writes * waf) // 256,
                "erase_count": {"min": 1, "mean": round(waf * 3, 3), "max": int(waf * 6)}, "free_blocks_min": 3},
        "utilization": {"die_mean": 0.4, "die_max": 0.9, "channel_mean": 0.3, "cpu": 0.2},
        "integrity": {"reads_checked": reads, "mismatches": 2 if fail == 3 else 0},
        "run": {"wall_s": round(time.time() - t0, 4), "cpu_s": 0.1, "host_ios_per_s": 1e5, "peak_rss_mb": 30.0},
    }
    if cfg["fake.extra"] != "0":
        summary["accel"] = {"clustering": {"cycles": 1234, "energy_nj": 5.5}}
    rows = ["time_s,read_mbps,write_mbps,read_iops,write_iops,gc_lba_moves,erases,free_blocks,"
            "read_p50_us,read_p99_us,read_p999_us,read_max_us,write_p50_us,write_p99_us,write_p999_us,write_max_us"]
    for i in range(10):
        gc = 40 * (i % 4 == 3) + int(10 * jitter)
        rows.append(f"{(i + 1) * sim_t / 10:.6f},{100 + i},{200 - 3 * gc % 50},{1000 + i},{2000 - gc},{gc},"
                    f"{gc // 8},{20 - i % 5},{60 + gc},{180 + gc},{300 + gc},{400 + gc},{200 + gc},{600 + gc},"
                    f"{900 + gc},{1200 + gc}")
    out = a.out or "ssdvp-out"
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    tmp = out + ".partial"
    os.makedirs(tmp, exist_ok=True)
    write_atomic(os.path.join(tmp, "summary.json"), json.dumps(summary, indent=1))
    write_atomic(os.path.join(tmp, "timeseries.csv"), "\n".join(rows) + "\n")
    if os.path.isdir(out):
        for f in os.listdir(tmp):
            os.replace(os.path.join(tmp, f), os.path.join(out, f))
        os.rmdir(tmp)
    else:
        os.replace(tmp, out)
    if not a.quiet:
        print(f"ssdvp: wrote {out}")
    if fail == 3:
        print("ssdvp: integrity: 2 read mismatches (lba 17, lba 42)", file=sys.stderr)
        sys.exit(3)
    if fail:
        print(f"ssdvp: injected failure {fail}", file=sys.stderr)
        sys.exit(fail)


def cmd_params(a):
    cfg = resolve(a.config, a.set)
    rows = [{"key": k, "type": t, "default": d, "description": desc, "value": cfg[k]} for k, t, d, desc in PARAMS]
    if a.format == "json":
        print(json.dumps(rows, indent=1))
    else:
        print("| key | type | default | description | value |\n|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['key']} | {r['type']} | {r['default']} | {r['description']} | {r['value']} |")


def main():
    if sys.argv[1:] == ["--version"]:
        print(f"ssdvp {VERSION}")
        return
    ap = argparse.ArgumentParser(prog="ssdvp")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("-c", "--config", required=True)
    r.add_argument("--set", action="append")
    r.add_argument("-o", "--out")
    r.add_argument("--quiet", action="store_true")
    p = sub.add_parser("params")
    p.add_argument("-c", "--config")
    p.add_argument("--set", action="append")
    p.add_argument("--format", choices=["markdown", "json"], default="markdown")
    a = ap.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    (cmd_run if a.cmd == "run" else cmd_params)(a)


if __name__ == "__main__":
    main()
