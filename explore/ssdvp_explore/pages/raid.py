"""docs/results/raid*.md: GC coordination in a RAID-5 array (the RAID GC-scheduling slides)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from . import Page, floor_note, markdown_table, provenance_section, register

POLICY = "config.array.gc_coordination"
RECON = "config.array.reconstruct"
ORDER = ["normal", "gcsync", "gcsync_plus", "gclock", "harmonia"]
WORKLOADS = {"tpcc-small": "TPCC", "dtrs": "DTRS", "msnfs-like": "MSNFS-like", "synthetic uniform": "stress"}
# The slides' tables (GC collisions; mean read latency in ms), TPCC / DTRS / MSNFS.
SLIDES_COLLISIONS = {"normal": (3323, 1214, 3509), "gcsync": (1139, 124, 201), "gcsync_plus": (0, 0, 0), "gclock": (0, 0, 0)}
SLIDES_LATENCY_MS = {"normal": (1.167, 0.415, 0.854), "gcsync": (1.802, 0.498, 0.498),
                     "gcsync_plus": (2.479, 0.511, 0.560), "gclock": (2.207, 0.519, 0.547)}

SETUP = """\
**Setup.** `configs/raid.yaml`: a host RAID-5 controller (left-symmetric, 64 KiB
chunks, read-modify-write or reconstruct-write by the fewer reads) over 4
complete SSD SoCs, each running its own firmware: 4 channels x 2 dies x 64
blocks x 64 pages x 8 KiB (256 MiB of flash, 224 MiB exported), 20 us / 200 us
/ 2 ms NAND, greedy GC below 16 free blocks. **Preconditioning** (functional,
before the timed part): the whole array is written sequentially (data and
parity), then one array-write of random 4 KiB overwrites (each updating a data
and a parity LBA), then random one-LBA array writes until every device's free
pool is at its GC threshold (`precondition.free_pool: auto`), so every device
starts in GC steady state. How a device
is known to be collecting: vendor asynchronous events it sends at GC start and
end (reconstruction decides on those); the windows are NVMe Predictable
Latency Mode windows set by Set Features; GCLock is a vendor admin command
granting a lock the drive asks for by an asynchronous event; Harmonia is the
paper's reactive global GC: a drive that needs to collect asks by an event and
the controller tells every drive to collect at once, up to 4 blocks above its
threshold, by a vendor command ([docs/models/raid.md](../models/raid.md)). The
GC counts below are measured from each firmware's real GC activity: a read
counts a device if that device had a victim open at any time while the read
was served. A **collision** is a read that met 2 or more devices in GC. The
slides define a collision as GCs running at the same time on different SSDs;
the stricter count of reads during which two devices collected at the same
instant is `array.collisions_at_one_instant` in the table.

Workloads: TPCC = the bundled TPC-C sample (7,000 requests, 63 % reads, 8 KiB)
slowed 370x so its mean inter-arrival is the slides' 7.2 ms; DTRS = the bundled
DTRS trace as recorded (127,043 requests over 30,000 s, 89 % reads, 55 KB);
MSNFS-like = `traces/msnfs-like.ascii`, synthetic, matched to the slides' MSNFS
row (11.6 % reads, 9.0 / 15.8 KiB, 55.7 ms mean inter-arrival, 20,000 requests);
stress = synthetic 16 KiB requests, 30 % reads, 400 IOPS Poisson. The slides'
traces ran 50 min to 8 h 20 min on their own SSDSim configuration; ours are
shorter (TPCC, MSNFS-like) and on small devices, so absolute counts are not
comparable: compare the ratios between policies."""


def _label(df: pd.DataFrame) -> pd.DataFrame:
    from ..plots import WORKLOAD, with_labels
    df = with_labels(df)
    df = df[df["status"].isin(["ok", "violations"])].copy()
    df["workload"] = df[WORKLOAD].map(lambda w: WORKLOADS.get(w, w))
    return df


def pivot(df: pd.DataFrame, col: str, index: str = "workload", columns: str = POLICY, order=ORDER) -> pd.DataFrame:
    if col not in df:
        return pd.DataFrame()
    t = df.pivot_table(index=index, columns=columns, values=col, aggfunc="mean")
    t = t[[c for c in order if c in t.columns]] if order else t
    wl = [w for w in WORKLOADS.values() if w in t.index] + [w for w in t.index if w not in WORKLOADS.values()]
    t = t.reindex(wl) if index == "workload" else t
    t.columns = [str(c) for c in t.columns]
    return t.reset_index()


def _slides(table: dict, fmt) -> pd.DataFrame:
    rows = []
    for i, w in enumerate(["TPCC", "DTRS", "MSNFS"]):
        rows.append({"workload": w + " (slides)", **{p: fmt(v[i]) for p, v in table.items()}})
    return pd.DataFrame(rows)


def _fig_bars(df: pd.DataFrame, out: Path, col: str, ylabel: str) -> list[Path]:
    from ..plots import legend_outside, log_if_wide, plt, save
    t = pivot(df, col).set_index("workload")
    fig, ax = plt.subplots(figsize=(7, 3.2))
    t.plot.bar(ax=ax, rot=0, width=0.8, legend=False)
    log_if_wide(ax, t.to_numpy())
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    legend_outside(fig, *ax.get_legend_handles_labels(), "policy")
    return save(fig, out)


def render_main(ctx) -> str:
    df = _label(ctx.table)
    never = df[df[RECON] == "never"]
    ongc = df[df[RECON] == "on_gc"]
    lines = [f"# {ctx.page.title}", "",
             "<!-- Generated by ssdvp_explore (explore/). Do not edit: edit the page's renderer "
             "(explore/ssdvp_explore/pages/raid.py) or sweep file and regenerate. -->", "",
             "Regenerate this page and its two companions (window and buffer time: "
             "[raid-window.md](raid-window.md); array width and chunk: [raid-shape.md](raid-shape.md)) from nothing:", "",
             "```sh", "explore/ssdvp-explore reproduce raid raid-window raid-shape", "```", "",
             *floor_note(ctx.sweep), SETUP, "", findings_main(never, ongc), "",
             "## GC collisions (reads meeting 2 or more devices in GC), no reconstruction", "",
             markdown_table(pivot(never, "array.collisions"), ".0f"), "",
             "The slides' table (their SSDSim set-up, full-length traces):", "",
             markdown_table(_slides(SLIDES_COLLISIONS, int), ".0f"), "",
             "Forced collections (a device out of free blocks collected outside its window or without the lock):", "",
             markdown_table(pivot(never, "array.forced_collisions"), ".0f"), "",
             "## Reads by the number of devices in GC (normal, no reconstruction)", ""]
    hist_cols = [c for c in [f"array.reads_by_gc_devices.{g}GC" for g in range(5)] if c in df]
    if hist_cols:
        h = never[never[POLICY] == "normal"].groupby("workload")[hist_cols].mean()
        h.columns = [c.split(".")[-1] for c in hist_cols]
        lines += [markdown_table(h.reset_index(), ".0f"), ""]
    lines += ["## Mean read latency (ms), no reconstruction", "",
              markdown_table(pivot(never.assign(ms=never["array.latency_us.read.mean"] / 1000), "ms"), ".3f"), "",
              "The slides' table:", "", markdown_table(_slides(SLIDES_LATENCY_MS, float), ".3f"), "",
              "p99.9 read latency (us), no reconstruction:", "",
              markdown_table(pivot(never, "array.latency_us.read.p999"), ".0f"), "",
              "Mean write latency (us), no reconstruction:", "",
              markdown_table(pivot(never, "array.latency_us.write.mean"), ".0f"), "",
              "## With reconstruction (`array.reconstruct: on_gc`)", "",
              "Mean latency (us) of the reads that met exactly one device in GC, without and with reconstruction:", ""]
    c1 = "array.read_latency_by_gc_devices_us.1GC.mean"
    c0 = "array.read_latency_by_gc_devices_us.0GC.mean"
    if c1 in df:
        t = pd.concat([pivot(never, c1).set_index("workload").add_suffix(" never"),
                       pivot(ongc, c1).set_index("workload").add_suffix(" on_gc")], axis=1)
        t = t[[c for p in ORDER for c in (f"{p} never", f"{p} on_gc") if c in t.columns]]
        lines += [markdown_table(t.reset_index(), ".0f"), "",
                  "and of the reads that met none (the cost of reading with no GC in the way):", "",
                  markdown_table(pivot(ongc, c0), ".0f"), ""]
    lines += ["Mean read latency (us) with reconstruction:", "", markdown_table(pivot(ongc, "array.latency_us.read.mean"), ".0f"), "",
              "p99.9 read latency (us) with reconstruction:", "", markdown_table(pivot(ongc, "array.latency_us.read.p999"), ".0f"), "",
              "Reconstructed reads:", "", markdown_table(pivot(ongc, "array.reconstructions"), ".0f"), "",
              "## Cost in the devices", "",
              "Mean per-device WAF (timed part), no reconstruction:", "", markdown_table(pivot(never, "array.device_mean.waf"), ".2f"), "",
              "Mean per-device GC time (s):", "", markdown_table(pivot(never, "array.device_mean.gc_active_s"), ".2f"), ""]
    figs = []
    try:
        absdir = Path(ctx.extra.get("out_dir", "docs/results"))
        never_ms = never.assign(ms=never["array.latency_us.read.mean"] / 1000)
        for cap, stem, data, col, ylabel in (
                ("Collisions per workload and policy (no reconstruction)", "collisions", never,
                 "array.collisions", "collisions (reads)"),
                ("Mean read latency per workload and policy (no reconstruction)", "read_latency", never_ms,
                 "ms", "mean read latency (ms)")):
            out = absdir / "raid" / stem
            figs.append((cap, _fig_bars(data, out, col, ylabel) if ctx.extra.get("draw", True)
                         else [out.with_name(stem + ".png")]))
    except Exception as e:  # a figure must not lose the page
        lines += [f"(figures not drawn: {e})", ""]
    if figs:
        lines += ["## Figures", ""]
        for cap, paths in figs:
            png = next(p for p in paths if p.suffix == ".png")
            n = never.groupby(["workload", POLICY]).size()
            runs = f"{n.min()}" if n.min() == n.max() else f"{n.min()}-{n.max()}"
            lines += [f"![{cap}](raid/{png.name})", "", f"*{cap}; one bar: the mean of {runs} run(s)*", ""]
    lines += [f"Full table (one row per run, every config key and metric): [{ctx.table_csv.name}]({ctx.table_csv.as_posix()})", "",
              "Sweep `explore/sweeps/raid.yaml`, base `configs/raid.yaml`.", "", provenance_section(ctx)]
    return "\n".join(lines)


_METRICS = [("array.collisions", "Collisions", ".0f"), ("array.forced_collisions", "Forced collections", ".0f"),
            ("array.latency_us.read.p999", "p99.9 read latency (us)", ".0f")]


def _head(ctx, name: str, workload: str, findings: str) -> list[str]:
    return [f"# {ctx.page.title}", "", "<!-- Generated by ssdvp_explore (explore/). Do not edit. -->", "",
            f"Regenerate: `explore/ssdvp-explore reproduce {name}` (or all RAID pages: "
            "`explore/ssdvp-explore reproduce raid raid-window raid-shape`). Setup as in [raid.md](raid.md); "
            f"workload: {workload}; no reconstruction.", "", *floor_note(ctx.sweep), findings, ""]


def render_window(ctx) -> str:
    df = _label(ctx.table)
    df["policy"] = df[POLICY] + " tb=" + df["config.array.gc.buffer_time"].astype(str)
    bank = "config.array.gc.bank_blocks"
    if bank in df:
        b = pd.to_numeric(df[bank], errors="coerce").fillna(0)
        df.loc[b > 0, "policy"] = df.loc[b > 0, "policy"] + " bank=" + b[b > 0].astype(int).astype(str)
    df["tw_ms"] = df["config.array.gc.time_window"].astype(str).str.replace("ms", "").astype(float)
    th = "config.ftl.gc.threshold_blocks"
    lines = _head(ctx, "raid-window", "the synthetic stress workload (16 KiB, 30 % reads, 400 IOPS Poisson, "
                  "20,000 requests)", findings_window(df, th))
    for metric, name, fmt in _METRICS[:3] + [("array.latency_us.read.mean", "Mean read latency (us)", ".1f"),
                                             ("array.latency_us.write.p999", "p99.9 write latency (us)", ".0f")]:
        lines += [f"## {name}", ""]
        for t in sorted(df[th].dropna().unique()):
            sub = df[df[th] == t]
            p = sub.pivot_table(index="policy", columns="tw_ms", values=metric, aggfunc="mean")
            p.columns = [f"{c:g} ms" for c in p.columns]
            lines += [f"GC below {int(t)} free blocks:", "", markdown_table(p.reset_index(), fmt), ""]
    absdir = Path(ctx.extra.get("out_dir", "docs/results"))
    if ctx.extra.get("draw", True):
        _fig_window(df, th, absdir / "raid-window" / "window")
    lines += ["## Figure", "", "![Collisions and p99.9 read latency against the window](raid-window/window.png)", "",
              "*Collisions and p99.9 read latency against the GC window; one point: one run*", "",
              f"Full table: [{ctx.table_csv.name}]({ctx.table_csv.as_posix()})", "", provenance_section(ctx)]
    return "\n".join(lines)


def _fig_window(df: pd.DataFrame, th: str, out: Path):
    from ..plots import legend_outside, log_if_wide, plt, save
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    for (pol, t), sub in df.groupby(["policy", th]):
        sub = sub.sort_values("tw_ms")
        axes[0].plot(sub["tw_ms"], sub["array.collisions"], marker="o", label=f"{pol}, GC<{int(t)}")
        axes[1].plot(sub["tw_ms"], sub["array.latency_us.read.p999"], marker="o", label=f"{pol}, GC<{int(t)}")
    for ax, yl, col in zip(axes, ["collisions (reads)", "p99.9 read latency (us)"],
                           ["array.collisions", "array.latency_us.read.p999"]):
        ax.set_xscale("log")
        xs = sorted(df["tw_ms"].unique())
        ax.set_xticks(xs, [f"{x:g}" for x in xs])   # the swept windows themselves
        ax.minorticks_off()
        log_if_wide(ax, df[col])
        ax.set_xlabel("time window (ms)")
        ax.set_ylabel(yl)
    fig.tight_layout()
    legend_outside(fig, *axes[0].get_legend_handles_labels(), "policy, GC threshold")
    return save(fig, out)


def render_shape(ctx) -> str:
    df = _label(ctx.table)
    df["devices"] = df["config.array.devices"].astype(int)
    df["chunk"] = df["config.array.chunk"].astype(str)
    lines = _head(ctx, "raid-shape", "synthetic 16 KiB, 30 % reads, 100 IOPS per data device (the rate grows "
                  "with the width)", findings_shape(df))
    for metric, name, fmt in _METRICS[:3] + [("array.latency_us.write.mean", "Mean write latency (us)", ".0f"),
                              ("array.device_mean.waf", "Mean per-device WAF", ".2f"),
                              ("array.stripe_writes.read_modify_write", "Read-modify-write stripe writes", ".0f")]:
        p = df.pivot_table(index=["devices", "chunk"], columns=POLICY, values=metric, aggfunc="mean")
        p = p[[c for c in ORDER if c in p.columns]]
        lines += [f"## {name}", "", markdown_table(p.reset_index(), fmt), ""]
    lines += [f"Full table: [{ctx.table_csv.name}]({ctx.table_csv.as_posix()})", "", provenance_section(ctx)]
    return "\n".join(lines)


def _rng(vals, fmt: str = "{:.0f}") -> str:
    v = [x for x in vals if x == x]
    lo, hi = (fmt.format(min(v)), fmt.format(max(v))) if v else ("n/a", "n/a")
    return lo if lo == hi else f"{lo}-{hi}"


def findings_main(never: pd.DataFrame, ongc: pd.DataFrame) -> str:
    """What the recorded runs show, computed from the table (nothing typed in)."""
    col = never.pivot_table(index="workload", columns=POLICY, values="array.collisions", aggfunc="mean")
    rd = never.pivot_table(index="workload", columns=POLICY, values="array.latency_us.read.mean", aggfunc="mean")
    waf = never.pivot_table(index="workload", columns=POLICY, values="array.device_mean.waf", aggfunc="mean")
    get = lambda t, w, p: float(t.loc[w, p]) if w in t.index and p in t.columns else float("nan")
    wl = list(col.index)
    red = [100 * (1 - get(col, w, "gcsync") / get(col, w, "normal")) for w in wl if get(col, w, "normal") >= 5]
    out = ["**What the recorded run shows** (computed from the tables below):", "",
           "- Collisions under normal: " + ", ".join(f"{w} {get(col, w, 'normal'):.0f}" for w in wl) +
           " (the slides: 3,323 / 1,214 / 3,509 on TPCC / DTRS / MSNFS). GCSync removes " + _rng(red) +
           " % of them where normal has 5 or more (the slides: 60-71 %); GCSync+ leaves at most "
           f"{max(get(col, w, 'gcsync_plus') for w in wl):.0f} and GCLock {max(get(col, w, 'gclock') for w in wl):.0f}"
           " on any workload (the slides: 0).",
           "- Mean read latency of each coordinated policy over normal's: " + "; ".join(
               f"{w} {_rng([get(rd, w, p) / get(rd, w, 'normal') for p in ORDER[1:]], '{:.2f}')}x" for w in wl) +
           " (the slides: 1.5-2.1x slower, MSNFS faster).",
           "- Harmonia's per-device WAF over normal's: " + ", ".join(
               f"{w} {get(waf, w, 'harmonia') / get(waf, w, 'normal'):.2f}x" for w in wl) +
           " (it makes idle drives collect when one must).",
           f"- Per-device WAF in the timed part: {_rng(never['array.device_mean.waf'], '{:.2f}')}; the two collision "
           "counts differ on " + str(int((pd.concat([never, ongc])["array.collisions"] !=
                                          pd.concat([never, ongc])["array.collisions_at_one_instant"]).sum())) +
           f" of {len(never) + len(ongc)} runs."]
    c1 = "array.read_latency_by_gc_devices_us.1GC.mean"
    if c1 in never and c1 in ongc:
        a = never.groupby("workload")[c1].mean()
        b = ongc.groupby("workload")[c1].mean()
        out.append("- Reads that met one collecting device, mean latency without and with reconstruction: " +
                   ", ".join(f"{w} {a[w]:.0f} / {b[w]:.0f} us" for w in wl if w in a and w in b) + ".")
    return "\n".join(out)


def findings_window(df: pd.DataFrame, th: str) -> str:
    out = ["**What the recorded run shows** (computed from the tables below):", ""]
    for t in sorted(df[th].dropna().unique()):
        sub = df[df[th] == t]
        g = sub.groupby("policy")
        out.append(f"- GC below {int(t)} free blocks: collisions " + "; ".join(
            f"{p} {_rng(x['array.collisions'])}" for p, x in g) + "; forced collections " + "; ".join(
            f"{p} {_rng(x['array.forced_collisions'])}" for p, x in g) + " (over the windows swept).")
    return "\n".join(out)


def findings_shape(df: pd.DataFrame) -> str:
    g = df.groupby(["devices", POLICY])["array.collisions"]
    out = ["**What the recorded run shows** (computed from the tables below):", "",
           "- Collisions by array width (over the chunk sizes): " + "; ".join(
               f"{d} devices: " + ", ".join(f"{p} {_rng(g.get_group((d, p)))}" for p in ORDER
                                              if (d, p) in g.groups)
               for d in sorted(df["devices"].unique())) + "."]
    return "\n".join(out)


register(Page(name="raid", title="RAID-5 GC coordination: collisions, latency and reconstruction",
              sweep="explore/sweeps/raid.yaml", by=POLICY, baseline="normal", render=render_main))
register(Page(name="raid-window", title="RAID-5 GC coordination: the time window and the buffer time",
              sweep="explore/sweeps/raid-window.yaml", by=POLICY, render=render_window))
register(Page(name="raid-shape", title="RAID-5 GC coordination: array width and chunk size",
              sweep="explore/sweeps/raid-shape.yaml", by=POLICY, render=render_shape))
