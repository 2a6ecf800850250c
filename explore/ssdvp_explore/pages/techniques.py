"""docs/results/techniques.md: every seed's technique that runs on one drive, with the references (`single`,
`double`, the oracle, the GC scheduling modes), on one drive and five recorded applications, each change measured
against `double` on the same drive history; and the rows of docs/results/overview.md (overview.csv). Every figure
and verdict is computed here from the sweep's table."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..stats import fmt_ci, mean_ci
from ..units import quantity
from functools import partial

from . import (Page, closing, markdown_table, opening, overview_row, own_figure, recording_line, register, saturated,
               write_overview)

BASE = "double"
SAME = 1.0   # a change whose 95 % interval lies within +-1 % is no change (see _verdict)
# (technique, seed paper, what it is), in the page's order; overview.md lists them in this order too
TECHNIQUES = [
    ("single", "-", "one write frontier for host and GC data"),
    ("double", "-", "host and GC data on two frontiers (the drive's default placement; the baseline here)"),
    ("oracle", "-", "each write's real death-time class as its stream (8 streams; not implementable: the bound)"),
    ("gc-watermarks", "-", "GC in episodes, from the threshold up to a high watermark of free blocks"),
    ("gc-idle", "-", "background GC up to the high watermark once the host has been idle a while"),
    ("gc-autossd", "-", "AutoSSD: the GC share set by a feedback controller on the free pool"),
    ("gc-preempt", "-", "host reads go ahead of GC's queued flash operations on their die"),
    ("trim-idle", "000", "the file system's TRIMs held, sent when the host has been idle (the seed's baseline)"),
    ("detector-trim", "000", "the same TRIMs sent when the C4.5 detector sees GC in the last iostat sample"),
    ("autostream", "002", "AutoStream: streams from each chunk's last-period temperature"),
    ("lstm", "002", "the seed's LSTM: streams from each chunk's predicted temperature, its host CPU charged"),
    ("asa", "003", "ASA-FTL: K-Means on update frequency"),
    ("haml", "003", "HAML-SSD: 2-D K-Means hotness classes, software clustering"),
    ("haml-accel", "003", "HAML-SSD with small slices on the K-Means accelerator"),
    ("journal-separated", "004", "the ext4 journal's writes on a stream of their own"),
]
ORDER = [t for t, _, _ in TECHNIQUES]
# what each seed paper claims for its technique, against its own baseline (the only figures typed in here)
CLAIMS = {"trim-idle": "(the detector's baseline)",
          "detector-trim": "time under 400 MB/s 137 -> 66 s, bandwidth 449 -> 462 MB/s (vs idle TRIM)",
          "autostream": "-4 % WAF on MySQL (vs no streams)",
          "lstm": "-43.5 % (fio), -21 % (MySQL), -35.9 % (RocksDB) WAF (vs no streams)",
          "asa": "(HAML-SSD's baseline: WA 3.553 against HAML's 2.129)",
          "haml": "WA 13-57 % below Auto-SSD's, HOTIS's and ASA-FTL's",
          "haml-accel": "as haml; clustering 0.036 mm2 in 28 nm",
          "journal-separated": "-33 % WAF, +46-50 % IOPS (host-level FTL, vs one write point)"}
# overview.csv's metrics (OVERVIEW_METRICS) and the columns they are taken from
OVERVIEW = [("waf", "ftl.waf"), ("waf_change_pct", "d_waf"), ("erases", "ftl.erases"),
            ("write_p9999_us", "latency_us.write.p9999"), ("read_p9999_us", "latency_us.read.p9999"),
            ("resp_rel", "resp_rel"), ("ctrl_cpu_s", "cpu.compute_s"), ("host_cpu_s", "host_cpu_s"),
            ("dram_mib", "dram_mib"), ("flash_gib", "flash_gib")]

def technique(r) -> str:
    """The technique a row's configuration is (the sweep's cases, one each)."""
    c = lambda k: str(r.get("config." + k, ""))  # noqa: E731
    if c("host.trim.policy") in ("idle", "detector"):
        return {"idle": "trim-idle", "detector": "detector-trim"}[c("host.trim.policy")]
    p = c("ftl.placement.policy")
    if p == "stream":
        return {"journal": "journal-separated"}.get(c("host.streams"), c("host.streams"))
    if p == "double" and c("ftl.gc.trigger") != "threshold":
        return "gc-" + c("ftl.gc.trigger")
    if p == "double" and c("ftl.gc.preempt") not in ("off", ""):
        return "gc-preempt"
    if p == "haml" and c("ftl.cluster.engine") == "accel":
        return "haml-accel"
    return p


def _label(table: pd.DataFrame) -> pd.DataFrame:
    df = table[table["status"].isin(["ok", "violations"])].copy()
    df["technique"] = [technique(r) for r in df.to_dict("records")]
    df["workload"] = df["config.workload.trace"].astype(str).map(lambda t: Path(t).name.replace(".iolog", ""))
    df["seed"] = df["config.precondition.seed"]
    rc, wc = df["latency_us.read.count"].fillna(0), df["latency_us.write.count"].fillna(0)
    df["resp_us"] = (rc * df["latency_us.read.mean"].fillna(0) + wc * df["latency_us.write.mean"].fillna(0)) / (rc + wc)
    page = df["config.flash.page_size"].map(quantity)
    df["flash_gib"] = (df["flash.programs"].fillna(0) + df["flash.reads"].fillna(0)) * page / 2**30
    df["dram_mib"] = df["ftl.dram_bytes"] / 2**20
    pred = df["host.predictor.cpu.total_s"].fillna(0) if "host.predictor.cpu.total_s" in df else 0.0
    det = (df["trim.classifications"].fillna(0) * df["config.host.detector.cpu_cost"].map(quantity)
           if "trim.classifications" in df else 0.0)
    df["host_cpu_s"] = pred + det
    # the victims' mean invalid share at choice: what GC did not have to move, exactly (relocated LBAs over the
    # victims' LBAs in the timed part)
    per_block = df["config.flash.pages_per_block"].astype(float) * page / df["config.nvme.lba_size"].map(quantity)
    df["victim_invalid_pct"] = 100 * (1 - df["ftl.gc_lba_writes"] / (df["ftl.gc_runs"] * per_block))
    base = df[df["technique"] == BASE].set_index(["workload", "seed"])
    for col, out in (("ftl.waf", "d_waf"), ("resp_us", "resp_rel"), ("latency_us.write.p9999", "wp9999_rel"),
                     ("host.bandwidth_mbps", "mbps_rel")):
        ref = [base[col].get((w, s), float("nan")) for w, s in zip(df["workload"], df["seed"])]
        df[out] = 100 * (df[col] / ref - 1) if out == "d_waf" else df[col] / ref
    return df


def _x(r: float) -> str:
    """A ratio as '0.87x', '12.3x', '2,514x'."""
    return "" if r != r else f"{r:,.0f}x" if r >= 100 else f"{r:.3g}x"


def _cells(df, t, w, col):
    return df[(df["technique"] == t) & (df["workload"] == w)][col]


def _grid(df: pd.DataFrame, wl: list[str], col: str, fmt: str, techs=ORDER) -> pd.DataFrame:
    rows = [{"technique": t, **{w: fmt_ci(_cells(df, t, w, col), fmt) for w in wl}} for t in techs]
    return pd.DataFrame(rows)


def _verdict(xs) -> int:
    """-1: lower than double's (the whole 95 % interval of the per-history change below -SAME %), +1: higher,
    0: no difference that the three histories resolve."""
    m, h = mean_ci(xs)
    if m != m:
        return 0
    return -1 if m + h < -SAME else (1 if m - h > SAME else 0)


def _tally(df, wl, closed: bool = False) -> pd.DataFrame:
    rows = []
    for t in ORDER:
        if t == BASE:
            continue
        v = [_verdict(_cells(df, t, w, "d_waf")) for w in wl]
        ch = [mean_ci(_cells(df, t, w, "d_waf"))[0] for w in wl]
        lat = [mean_ci(_cells(df, t, w, "wp9999_rel"))[0] for w in wl]
        bw = [mean_ci(_cells(df, t, w, "mbps_rel"))[0] for w in wl]
        rows.append({"technique": t, "WAF lower on": v.count(-1), "no difference on": v.count(0),
                     "WAF higher on": v.count(1), "WAF change (%)": f"{min(ch):+.1f} to {max(ch):+.1f}",
                     "write p99.99 / double's": f"{_x(min(lat))} to {_x(max(lat))}",
                     **({"MB/s / double's": f"{_x(min(bw))} to {_x(max(bw))}"} if closed else {}),
                     "controller CPU (s)": mean_ci(df[df["technique"] == t]["cpu.compute_s"])[0],
                     "host CPU (s)": mean_ci(df[df["technique"] == t]["host_cpu_s"])[0],
                     "FTL DRAM (MiB)": mean_ci(df[df["technique"] == t]["dram_mib"])[0],
                     "the seed's claim": CLAIMS.get(t, "")})
    return pd.DataFrame(rows)


def _best(df, wl, closed: bool = False) -> tuple[list[str], pd.DataFrame]:
    """Per workload the implementable technique with the lowest WAF among those that lower it beyond the noise
    (_verdict), what it gains over double, and its price (double itself when none does)."""
    rows, lines = [], []
    for w in wl:
        means = {t: mean_ci(_cells(df, t, w, "ftl.waf"))[0] for t in ORDER
                 if t not in ("oracle", BASE) and _verdict(_cells(df, t, w, "d_waf")) < 0}
        best = min(means, key=means.get) if means else BASE
        orc = _cells(df, "oracle", w, "d_waf")
        d = _cells(df, best, w, "d_waf")
        cost = {c: mean_ci(_cells(df, best, w, c))[0] - mean_ci(_cells(df, BASE, w, c))[0]
                for c in ("cpu.compute_s", "host_cpu_s", "dram_mib", "flash_gib")}
        rows.append({"workload": w, "double's WAF": fmt_ci(_cells(df, BASE, w, "ftl.waf"), ".3f"),
                     "lowest resolved WAF": best, "its WAF change (%)": fmt_ci(d, "+.1f"),
                     "its write p99.99 / double's": _x(mean_ci(_cells(df, best, w, "wp9999_rel"))[0]),
                     "its response time / double's": fmt_ci(_cells(df, best, w, "resp_rel"), ".3f"),
                     **({"its MB/s / double's": fmt_ci(_cells(df, best, w, "mbps_rel"), ".3f")} if closed else {}),
                     "its extra controller CPU (s)": f"{cost['cpu.compute_s']:+.2f}",
                     "its extra host CPU (s)": f"{cost['host_cpu_s']:+.2f}",
                     "its extra FTL DRAM (MiB)": f"{cost['dram_mib']:+.2f}",
                     "oracle's WAF change (%)": fmt_ci(orc, "+.1f")})
        head = f"- **{w}** (double's WAF {mean_ci(_cells(df, BASE, w, 'ftl.waf'))[0]:.3f}): "
        if best == BASE:
            head += f"no technique a drive can run lowers WAF by more than {SAME:g} % beyond the noise; "
        else:
            head += f"the lowest WAF a drive can run is `{best}`'s, {fmt_ci(d, '+.1f')} % against double; "
        lines.append(head + f"placement by real death time (the oracle) reaches {fmt_ci(orc, '+.1f')} %.")
    return lines, pd.DataFrame(rows)


def overview_rows(df, wl, page: str, closed: bool = False) -> list[dict]:
    """One row per technique and workload: overview.csv (scripts/overview.py renders docs/results/overview.md);
    the closed-loop replays' workloads are named so, and only they give MB/s (an open-loop replay delivers the
    recording's own rate)."""
    cols = OVERVIEW + ([("mbps", "host.bandwidth_mbps")] if closed else [])
    return [overview_row(seed, t, what, w + (" (closed loop)" if closed else ""), page,
                         {name: _cells(df, t, w, col) for name, col in cols})
            for t, seed, what in TECHNIQUES for w in wl]


def _idle_note(df) -> str:
    """How much the idle-time techniques acted: gc-idle's victims collected in idle time, trim-idle's batches."""
    g, t = df[df["technique"] == "gc-idle"], df[df["technique"] == "trim-idle"]
    share = 100 * g["ftl.gc_schedule.idle_victims"] / g["ftl.gc_runs"].where(g["ftl.gc_runs"] > 0)
    return (f"**Idle time.** `gc-idle` collected {share.min():.0f}-{share.max():.0f} % of its victims in idle time "
            f"({g['ftl.gc_schedule.idle_wakeups'].min():.0f}-{g['ftl.gc_schedule.idle_wakeups'].max():.0f} idle "
            f"starts a run); `trim-idle` sent {t['trim.batches'].min():.0f}-{t['trim.batches'].max():.0f} TRIM batches "
            "a run.")


def _setup(df, root, closed: bool) -> str:
    c = lambda k: ", ".join(sorted(df["config." + k].astype(str).unique()))  # noqa: E731
    recs = "\n".join(recording_line(root, w) for w in sorted(df["workload"].unique()))
    qd = ", ".join(f"{w} {int(q)}" for w, q in df.groupby("workload")["config.host.queue_depth"].first().items())
    t = df["host.sim_time_s"]
    replay = (CLOSED if closed else OPEN).format(scale=c("workload.time_scale"), period=c("ftl.hot.period"),
                                                 pperiod=c("host.predict.period"), qd=qd,
                                                 span=f"{t.min():.0f}-{t.max():.0f} s")
    return SETUP.format(recordings=recs, replay=replay, high=c("ftl.gc.high_blocks"),
                        thr=c("ftl.gc.threshold_blocks"), idle=c("ftl.gc.idle_after"),
                        trim_idle=c("host.trim.idle_time"), period=c("ftl.hot.period"),
                        pperiod=c("host.predict.period"))


def render(ctx, closed: bool = False) -> str:
    df = _label(ctx.table)
    wl = sorted(df["workload"].unique())
    n = df.groupby(["workload", "technique"]).size()
    write_overview(ctx, overview_rows(df, wl, ctx.page.name, closed))
    best_lines, best = _best(df, wl, closed)
    tally = _tally(df, wl, closed)
    lower = tally[tally["WAF lower on"] > 0]["technique"].tolist()
    lines = opening(ctx, "techniques.py", _setup(df, ctx.sweep.root, closed), len(df), f"{n.min()}-{n.max()}") + [
        "## Which technique reduces GC overhead most, on which workload, at what price", "", *best_lines, "",
        markdown_table(best), "",
        f"Over the {len(wl)} recordings, the techniques that lower WAF against `double` on at least one (the whole "
        f"95 % interval of the per-history change below -{SAME:g} %): " +
        (", ".join(f"`{t}`" for t in lower) or "none") + ". Per technique (a count of recordings; the change range "
        "is over the recordings' means; costs are means over every run of the technique):", "",
        markdown_table(tally, ".3g"), "",
        *([] if closed else [saturated(df, "technique"), ""]), _idle_note(df), "",
        *(["## Throughput (MB/s)", "", markdown_table(_grid(df, wl, "host.bandwidth_mbps", ".1f")), "",
           "Over `double`'s on the same drive history:", "", markdown_table(_grid(df, wl, "mbps_rel", ".3f")), ""]
          if closed else []),
        "## WAF", "", markdown_table(_grid(df, wl, "ftl.waf", ".3f")), "",
        "## WAF change against `double` on the same drive history (%)", "",
        markdown_table(_grid(df, wl, "d_waf", "+.1f")), "",
        "## Why: how much of GC's victims had died when GC chose them", "", VICTIMS, "",
        markdown_table(_grid(df, wl, "victim_invalid_pct", ".1f")), "",
        "Free blocks on average over the run (`ftl.spare.free_blocks_mean`):", "",
        markdown_table(_grid(df, wl, "ftl.spare.free_blocks_mean", ".1f")), "",
        "## Block erases", "", markdown_table(_grid(df, wl, "ftl.erases", ",.0f")), "",
        "## Mean response time over `double`'s (all requests)", "", markdown_table(_grid(df, wl, "resp_rel", ".3f")),
        "", "## p99.99 write latency (us)", "", markdown_table(_grid(df, wl, "latency_us.write.p9999", ",.0f")), "",
        "## p99.99 read latency (us)", "", markdown_table(_grid(df, wl, "latency_us.read.p9999", ",.0f")), "",
        "## What each costs", "", COSTS, "",
        "Controller CPU (s, the firmware's busy time):", "", markdown_table(_grid(df, wl, "cpu.compute_s", ".2f")), "",
        "Host CPU (s):", "", markdown_table(_grid(df, wl, "host_cpu_s", ".3f")), "",
        "FTL DRAM (MiB):", "", markdown_table(_grid(df, wl, "dram_mib", ".2f")), "",
        "Flash traffic (GiB programmed and read):", "", markdown_table(_grid(df, wl, "flash_gib", ".2f")), ""]
    lines += own_figure(ctx, lambda out: _fig(df, wl, out), "change", "WAF and p99.99 write latency per technique",
                        "Left: WAF change against `double` on the same drive history; right: p99.99 write latency "
                        "(log scale). One marker per recording: the mean of 3 drive histories; whisker: its 95 % "
                        "interval.")
    lines += closing(ctx, (REVIEWER_CLOSED if closed else REVIEWER_OPEN) + REVIEWER, "configs/workloads-1g.yaml")
    return "\n".join(lines)


def _fig(df, wl, out):
    from ..plots import legend_outside, plt, save
    techs = ORDER   # double too: its latency is the reference on the right
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.32 * len(techs) + 1.2), sharey=True)
    off = 0.7 / max(1, len(wl))
    for ax, col, xl in ((axes[0], "d_waf", "WAF change vs double (%)"),
                        (axes[1], "latency_us.write.p9999", "p99.99 write latency (us)")):
        for j, w in enumerate(wl):
            ms, hs = zip(*[mean_ci(_cells(df, t, w, col)) for t in techs])
            ys = [i + (j - (len(wl) - 1) / 2) * off for i in range(len(techs))]
            ax.errorbar(ms, ys, xerr=hs, fmt="o", ms=3, capsize=2, label=w)
        ax.set_xlabel(xl)
        ax.grid(axis="x", alpha=0.3)
    axes[0].axvline(0, color="k", lw=0.8)
    axes[1].set_xscale("log")
    axes[0].set_yticks(range(len(techs)), techs)
    axes[0].invert_yaxis()
    fig.tight_layout()
    legend_outside(fig, *axes[0].get_legend_handles_labels(), "recording")
    return save(fig, out)


SETUP = """\
**Setup.** One drive, the one the recordings were made on (`configs/workloads-1g.yaml`: 4 channels x 2 dies, 292
blocks a plane of 64 pages of 8 KiB, 1 GiB exported, 12.3 % spare, greedy GC below {thr} free blocks), used: a
sequential fill and one drive-write of random overwrites before the recording, and the recording's mkfs discard
dropped (`workload.leading_discards: drop`: the file system made with `nodiscard` on a used drive), so that
every recording makes the drive collect. The recordings ([workloads.md](workloads.md)):

{recordings}

{replay}
Three runs per point: the drive's history before the recording (`precondition.seed` 1, 2, 3); nothing else
varies (the LSTM's seed is the default; its spread over seeds is on [streams-recorded.md](streams-recorded.md)).
A cell is the mean and, after ±, the half-width of its 95 % interval (Student's t); a change against `double`
is computed per drive history, then averaged.

**The techniques** (one configuration each; `double` is the drive's default placement and the baseline):

- `single`, `double`, `oracle` (each write's real death-time class from a pre-pass, as one of 8 streams);
- GC scheduling, on `double` ([firmware/gc.md](../firmware/gc.md)): `gc-watermarks` (episodes from {thr} up to
  {high} free blocks), `gc-idle` (background GC up to {high} once no command has come for {idle}), `gc-autossd`
  (AutoSSD's feedback-controlled GC share, up to {high}), `gc-preempt` (`ftl.gc.preempt: reads`);
- seed 000, the file system's TRIMs held (`workload.trace_discards: hold`) and sent by the OS after {trim_idle}
  with %util 0 (`trim-idle`, the seed's baseline) or when the C4.5 detector classifies the last 100 ms iostat
  sample as GC (`detector-trim`; the tree [gc-detector-recorded.md](gc-detector-recorded.md) trained, kept as
  `docs/results/techniques/detector.c45`); `double` sends them as they come (a `discard` mount);
- seed 002, `autostream` and `lstm` (8 streams, 10,000 chunks, 8 training periods, the LSTM's host CPU charged:
  `host.predict.cpu_ns_per_mac`);
- seed 003, `asa` (ASA-FTL) and `haml` (HAML-K, K 6, 400 KiB slices, software K-Means), and `haml-accel` (48 KiB
  slices on the K-Means accelerator: the setting [haml-recorded-sens.md](haml-recorded-sens.md) found best on
  MariaDB);
- seed 004, `journal-separated` (`host.streams: journal`: writes inside the ext4 journal on a second stream).

Seed 001's RAID-5 GC coordination needs an array of drives: its rows on [overview.md](overview.md) come from
[raid-trigger.md](raid-trigger.md)."""

VICTIMS = """\
The victims' mean invalid share when GC chose them, % (1 - `ftl.gc_lba_writes` / (`ftl.gc_runs` x a block's
LBAs): what GC did not have to move). Greedy GC picks the block with the fewest valid pages at the moment it
must collect; a technique that collects later or in batches (episodes) lets more of the data in its victims die
first, and moves less of it. The cost of collecting in batches is that host writes wait while an episode runs:
the p99.99 tables below."""

COSTS = """\
**Controller CPU**: the firmware's busy time over the run (`cpu.compute_s`: clustering, placement, GC, command
handling). **Host CPU**: the LSTM's and AutoStream's feature extraction, training and inference
(`host.predictor.cpu.total_s`), and the detector's classifications at `host.detector.cpu_cost` each. **FTL
DRAM**: the firmware's tables in the controller's DRAM (`ftl.dram_bytes`: mapping, block table, buffers,
frontiers, the placement's slice tables); the accelerator's own SRAM is not in it (its area:
[models/accel.md](../models/accel.md)). **Flash traffic**: pages programmed and read, host and GC, times the
page size."""

OPEN = """\
Each is replayed once, open loop, at x{scale} its recorded gaps (`workload.time_scale`): a recording's
timestamps are the serving drive's, as fast as it went, and a used drive is slower; x{scale} is the smallest power
of two at which `single` kept up with every recording when the sweep was set up (the saturation check below
re-checks every run); periods scale with it (HAML's T {period}, the predictors' period {pperiod}: 0.5 s of the
recording). Throughput is the recording's own rate for every technique that keeps up: what a technique costs in
speed shows as response time and tail latency ([techniques-closed.md](techniques-closed.md) replays the same
recordings closed loop and gives MB/s)."""

CLOSED = """\
Each is replayed once, closed loop at the recording's own queue depth ({qd}) with its flush ordering
(`host.mode: closed`, `workload.flush_order: true`): the drive sets the pace, so throughput (MB/s) is what a
technique costs or gains in speed. The host still pauses while it waits on a flush, so the drive can go
without a command long enough for `gc-idle` but not for `trim-idle` (the idle-time line below says how often);
[techniques.md](techniques.md) replays the same recordings open loop at an eighth of their recorded pace. HAML's
T {period} and the predictors' period {pperiod} (the replays span {span} of simulated time)."""

REVIEWER_OPEN = """\
- *Why slowed eight times?* The recordings' timestamps are those of the drive that served them, which collected
  little (the mkfs discard made it empty); on a used drive the slower techniques queued in the host at x4.
  Slowing also leaves the idle gaps that `gc-idle` and `trim-idle` need; a closed-loop replay has only the
  host's waits on flushes ([techniques-closed.md](techniques-closed.md): enough for idle GC, not for idle TRIM).
"""

REVIEWER_CLOSED = """\
- *Why closed loop?* To measure throughput: open loop at the recording's pace every technique that keeps up
  delivers the same MB/s ([techniques.md](techniques.md) gives latency there). The price: the only idle time is
  the host's waits on flushes, enough for idle GC, not for the OS's idle TRIM (the idle-time line above).
"""

REVIEWER = """\
- *Why `double`, not `single`, as the baseline?* It is the drive's default placement and the one every
  technique but `single` and the placements builds on (the GC modes and TRIM policies run on it); `single` is a
  row of its own.
- *`trim-idle` and `detector-trim` on recordings without run-time discards?* MariaDB, RocksDB and fio-journal
  run on a file system mounted without `discard`: nothing is held, so both equal `double` there (their rows say
  so within the noise); varmail and PostMark were recorded on a `discard` mount.
- *The LSTM trains and is scored on the same run here.* Yes: it learns online over the first 8 periods, as the
  seed's does; trained on one recording and scored on another: [streams-recorded.md](streams-recorded.md).
- *Why do the streams' rows differ from [streams-recorded.md](streams-recorded.md)'s on the same recordings?*
  The drive's history: there the drive is only filled sequentially before the recording; here one drive-write of
  random overwrites comes first, so the preconditioned data GC must move is scattered over every block, and
  separating the recording's writes from it pays off more (or costs less). Both pages are right about their
  drive; which history a real drive has is the question a reader must answer for theirs.
- *Each seed's own setup differs.* Each seed's page reproduces its paper on its own terms (the seed's drive,
  trace, metric); this page asks all of them the same question on the same drive and recordings.
- *RAID-5 coordination?* It changes when a read meets GC on an array, not what a drive writes: its rows on
  [overview.md](overview.md) come from [raid-trigger.md](raid-trigger.md)."""

register(Page(name="techniques", title="Every seed's technique on one drive and five recorded applications",
              sweep="explore/sweeps/techniques.yaml", by="technique", baseline=BASE, keep=("detector.c45",),
              render=render))
register(Page(name="techniques-closed",
              title="Every seed's technique on one drive and five recorded applications, closed loop: throughput",
              sweep="explore/sweeps/techniques-closed.yaml", by="technique", baseline=BASE,
              render=partial(render, closed=True)))
