"""scripts/reliability.py renders docs/results/reliability.md from its data alone: from a small synthetic data set
the page is whole (no placeholder, no missing figure), and changed data changes its figures and its verdicts, so
the text cannot be a constant that disagrees with the tables."""
import copy
import csv
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import reliability as rel  # noqa: E402

SETUPS = [("hotcold", "true", "false"), ("hotcold", "false", "false"), ("varmail", "true", "false"),
          ("varmail", "false", "false"), ("hotcold", "true", "true"), ("hotcold", "false", "true"),
          ("varmail", "true", "true"), ("varmail", "false", "true")]


def run_row(study, name, waf=3.0, **more):
    r = {"study": study, "name": name, "ftl.waf": waf, "ftl.host_lba_writes": 20000, "ftl.gc_lba_writes": 40000,
         "ftl.erases": 500, "ftl.gc_runs": 510, "ftl.pad_slots": 1000, "ftl.trim_lbas": 0, "ftl.lifetime.erases": 7000,
         "ftl.spare.nominal": 0.125, "flash.erases": 7010, "flash.programs": 90000, "flash.copybacks": 0,
         "latency_us.read.mean": 1500.0, "latency_us.read.p99": 4500.0, "latency_us.write.mean": 2500.0,
         "latency_us.write.p99": 40000.0, "host.errors": 0, "host.writes": 20000, "host.flushes": 3000,
         "host.trims": 100, "host.sim_time_s": 10.0, "reliability.ftl.retired_blocks_total": 0,
         "reliability.ftl.factory_bad_blocks": 0, "reliability.ftl.reads_retried": 0,
         "reliability.ftl.uncorrectable_reads": 0, "reliability.ftl.lost_lbas": 0, "reliability.ftl.refreshes": 0,
         "integrity.mismatches": 0, "checkpoints.taken": 0, "checkpoints.metadata_lba_writes": 0,
         "checkpoints.drain_s": 0.0, "trim_log.metadata_lba_writes": 0, "trim_log.programs": 0, "trim_log.moves": 0,
         "trim_log.erases": 0, "trim_log.gc_erases_waited": 0, "journal.fsync_latency_us.mean": 360.0,
         "journal.fsync_latency_us.p50": 230.0, "journal.fsync_latency_us.p99": 2200.0, "power.cuts": 0,
         "power.cuts_asked": 0,
         "power.violations": 0, "wall_s": 2.0}
    r.update(more)
    return r


def cut_row(study, run, **more):
    c = {"study": study, "run": run, "cut_at_s": 1.0, "torn_programs": 5, "torn_erases": 1, "older_allowed": 10,
         "durable_lost": 0, "foreign": 0, "unreadable": 0, "violations": 0, "recovery_pages": 130000,
         "recovery_time_s": 0.5, "recovery_cpu_s": 0.049, "during_gc": 1, "during_checkpoint": 0,
         "checkpoint_generation": 0, "checkpoint_pages_read": 0, "checkpoints_torn": 0, "free_blocks": 5,
         "blocks_reopened": 12, "trim_log_lbas_unmapped": 0, "deallocated_latest": 0, "torn_copybacks": 0,
         "deallocated_unchecked": 0, "deallocations_persistent": 0, "latest": 229000, "lbas_mapped": 229376,
         "ready_at_s": 1.5, "cpu_instructions": 0, "host_commands_failed": 32, "host_mismatches": 0, "copybacks": 0}
    for op in ("ckpt_copy_word", "buffer_alloc", "flash_submit", "l2p_lookup"):
        c[f"op_{op}_s"], c[f"op_{op}_count"] = 0.001, 1000
    c.update(more)
    return c


def synthetic():
    """A small data set with every row the renderer reads (2 cuts per set-up)."""
    runs, cuts, studies = [], [], []
    for i, (label, _) in enumerate(rel.FAULTS):
        more = {"reliability.ftl.retired_blocks_total": 10 * i}
        if label == "factory bad 5 %":
            more = {"reliability.ftl.factory_bad_blocks": 102}
        if label.startswith("RBER 1.8e-3"):
            more["reliability.ftl.reads_retried"] = 10000
        runs.append(run_row("faults", label, waf=4.4 + 0.3 * i, **more))
    for study in ("main", "copyback", "trimlog", "iss", "native-short"):
        for k, (setup, plp, ck) in enumerate(SETUPS):
            for j in range(2):
                cuts.append(cut_row(study, k, setup=setup, plp=plp, checkpoints=ck, cut=2 * k + j,
                                    checkpoint_pages_read=116 if ck == "true" else 0,
                                    recovery_time_s=0.05 if ck == "true" else 0.5))
        studies.append({"study": study, "cuts_asked": 16, "seed": 4, "env": "PER_RUN=2", "rc": 0, "runs": 8, "failed_runs": 0,
                        "wall_s": 60.0})
    for name, _ in rel.TRIMLOG_ARMS:
        runs.append(run_row("trimlog-cuts", name))
        for j in range(2):
            persist = int(name != "auto")
            cuts.append(cut_row("trimlog-cuts", name, deallocations_persistent=persist,
                                deallocated_unchecked=0 if persist else 9000, deallocated_latest=226000 * persist))
    for k, iv in enumerate(rel.CKPT_INTERVALS):
        on = iv != "0s"
        runs.append(run_row("checkpoint-interval", iv, waf=3.9 + 0.1 * k, **{
            "checkpoints.taken": 2 * k, "checkpoints.metadata_lba_writes": 228 * k, "checkpoints.drain_s": 0.0023 * k,
            "ftl.host_lba_writes": 25000 - 500 * k}))
        cuts.append(cut_row("checkpoint-interval", iv, recovery_pages=130000 if not on else [0, 9500, 3500, 4700][k],
                            checkpoint_pages_read=116 if on else 0,
                            recovery_time_s=[0.499, 0.048, 0.022, 0.028][k]))
    for k, fr in enumerate(rel.FUA_FRACTIONS):
        runs.append(run_row("fua", str(fr), waf=3.3 + k, **{"ftl.pad_slots": 4000 * (k + 1)}))
        cuts.append(cut_row("fua", str(fr), older_allowed=32 if fr == 0 else 0))
    for name, _ in rel.LOG_ARMS:
        more = {}
        if name.startswith("checkpoints"):
            more = {"checkpoints.taken": 38, "checkpoints.metadata_lba_writes": 8664 if "off" in name else 25000}
        if name == "log alone":
            more = {"trim_log.metadata_lba_writes": 17000, "trim_log.programs": 8500, "trim_log.moves": 60}
        waf = {"none": 1.003, "checkpoints, log off": 1.05, "checkpoints and log": 1.15, "log alone": 1.10}[name]
        runs.append(run_row("log-cost", name, waf=waf, **more))
    runs.append(run_row("counters", "varmail 6 cuts", **{"power.cuts": 5, "power.cuts_asked": 6}))
    runs.append({"study": "saved", "name": "save", "wall_s": 5.0})
    runs.append(run_row("saved", "load and cut", **{"power.cuts": 3, "power.cuts_asked": 3}))
    for j in range(3):
        cuts.append(cut_row("saved", "load and cut", checkpoint_generation=j))
    for mode in ("native", "iss"):
        runs.append(run_row("iss-same", mode))
        for j in range(2):
            cuts.append(cut_row("iss-same", mode, cut_at_s=1.15 + j + (0.0076 * j if mode == "iss" else 0),
                                ready_at_s=1.27 + j if mode == "native" else 1.2776 + j,
                                recovery_time_s=0.12 if mode == "native" else 0.13,
                                cpu_instructions=20.8e6 if mode == "iss" else 0))
    hf = {"fixed": {"cuts": 10, "during_gc": 3, "latest": 59616, "older": 17, "unchecked": 367, "pages": 36348,
                    "cpu_ms": 2.0},
          "random": {"cuts": 48, "during_gc": 38, "violations": 0, "lost": 0, "foreign": 0, "checks": 288000,
                     "latest": 285870, "older": 58, "unchecked": 2072},
          "per_recovery": {"pages": 3924, "vector_reads": 3924, "reopened": 7.4, "cpu_ms": 0.213, "drive_pages": 3924,
                           "torn_cmds": 28, "torn_pages": 136},
          "not_durable": {"violations": 11, "cuts": 48}, "wall_s": 1.4}
    drive = {"flash.channels": "4", "flash.dies_per_channel": "2", "flash.planes": "1", "flash.blocks_per_plane": "256",
             "nvme.namespace_size": "896MiB", "ftl.gc.policy": "greedy", "ftl.gc.threshold_blocks": "16",
             "ftl.write.at_floor": "room", "power.plp_pages": "64", "power.trim_log.blocks": "2", "quick": False}
    return {"runs": runs, "cuts": cuts, "studies": studies, "hf": hf, "drive": drive}


def write(tmp_path, d):
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    for name in ("runs", "cuts", "studies"):
        rel.write_results(str(data / f"{name}.csv"), d[name])
    (data / "host_ftl.json").write_text(json.dumps(d["hf"]))
    (data / "drive.json").write_text(json.dumps(d["drive"]))
    return data


def render(tmp_path, d):
    data = write(tmp_path, d)
    return "\n".join(rel.page_lines(str(tmp_path / "reliability.md"), str(data)))


def find(d, kind, **match):
    return [r for r in d[kind] if all(r.get(k) == v for k, v in match.items())]


def test_synthetic_data_render_a_whole_page(tmp_path):
    t = render(tmp_path, synthetic())
    for head in ("## Fault rates against WAF and latency", "## Power cuts", "## Copyback under power cuts",
                 "## Summary counters across cuts", "## Saved drives with checkpoints", "## Power loss in iss mode",
                 "## Recovery in simulated time", "## Checkpoints: recovery time against their cost",
                 "## FUA without power-loss protection", "## Deallocations after the last checkpoint",
                 "## Persistent deallocations without checkpoints", "## Power cuts through the host FTL"):
        assert head in t
    assert "{" not in t and "None" not in t and not re.search(r"\bnan\b", t)
    assert "**Result: 16 cuts, 0 violations, 0 integrity mismatches between cuts**" in t
    assert "10ebcaa" not in t and "branch power" not in t


def test_changed_figures_change_the_text(tmp_path):
    d = synthetic()
    base = render(tmp_path, d)
    d2 = copy.deepcopy(d)
    find(d2, "runs", study="faults", name="factory bad 5 %")[0]["reliability.ftl.factory_bad_blocks"] = 80
    find(d2, "runs", study="faults", name="factory bad 5 %")[0]["ftl.waf"] = 5.55
    t = render(tmp_path, d2)
    assert t != base
    assert "80 factory bad blocks" in t and "80 factory bad blocks" not in base
    assert "| 5.550 |" in t


def test_violations_and_verdicts_follow_the_data(tmp_path):
    d = synthetic()
    base = render(tmp_path, d)
    assert "Read retry barely moves read latency here" in base
    assert "Shorter intervals stop paying" in base
    d2 = copy.deepcopy(d)
    find(d2, "cuts", study="main")[3]["violations"] = 2
    for r in find(d2, "runs", study="faults", name="RBER 1.8e-3"):
        r["latency_us.read.mean"] = 2000.0
    find(d2, "cuts", study="checkpoint-interval", run="100ms")[0]["recovery_pages"] = 1000
    t = render(tmp_path, d2)
    assert "**Result: 16 cuts, 2 violations" in t and "| **2** |" in t
    assert "Read retry raises read latency here" in t
    assert "Shorter intervals stop paying" not in t and "fewer pages still" in t


def test_the_log_against_the_checkpoints_is_decided_by_the_data(tmp_path):
    d = synthetic()
    assert "the log costs more than the checkpoints" in render(tmp_path, d)
    d2 = copy.deepcopy(d)
    find(d2, "runs", study="log-cost", name="checkpoints and log")[0]["ftl.waf"] = 1.097
    assert "the log costs about as much as the checkpoints" in render(tmp_path, d2)


def test_committed_data_render_the_committed_page(tmp_path):
    data = rel.ROOT + "/docs/results/reliability"
    if not Path(data, "runs.csv").exists():
        return
    lines = rel.page_lines(str(tmp_path / "reliability.md"), data)
    committed = Path(rel.ROOT, "docs/results/reliability.md").read_text()
    assert "\n".join(lines) in committed
    with open(Path(data, "cuts.csv"), newline="") as f:
        assert list(csv.DictReader(f))
