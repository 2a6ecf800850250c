"""docs/results/streams-recorded.md: the LSTM multi-stream seed's placements (and HAML-SSD's) on recorded real
applications, with the questions a reviewer asks answered by further sweeps: the LSTM trained on one recording
and scored on another (streams-recorded-heldout), its CPU time charged or not (streams-recorded-cpu), the
replay's time scale against saturation (streams-recorded-scale) and the period and chunk count
(streams-recorded-sens). Every figure and verdict is computed here from the sweeps' tables; the seed's numbers
are the only ones typed in."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..stats import fmt_ci, mean_ci
from . import Page, closing, markdown_table, opening, register, saturated

STREAMS = "config.host.streams"
PLACE = "config.ftl.placement.policy"
ORDER = ["none", "autostream", "lstm", "oracle", "haml"]
PCTS = [("p50", "latency_us.write.p50"), ("p99", "latency_us.write.p99"), ("p99.9", "latency_us.write.p999"),
        ("p99.99", "latency_us.write.p9999")]
SCALE, HELD, CPU, SENS = ("streams-recorded-scale", "streams-recorded-heldout", "streams-recorded-cpu",
                          "streams-recorded-sens")
CPUCOL = "host.predictor.cpu."
SEEDCOL = "config.host.predict.seed"
DBS = ("mariadb", "rocksdb")   # the seed's kinds of database, by recording-name prefix
SEED_KINDS = DBS + ("fio-streams",)   # and its fio job
# The seed's Section 4.1 (Samsung PM963, its own fio, RocksDB, MySQL and Docker runs): WAF change against no
# streams, (LSTM, AutoStream) in %; None where the seed gives no AutoStream figure.
SEED_WAF = {"fio": (-43.5, -10.7), "RocksDB": (-35.9, None), "MySQL": (-21.0, -4.0),
            "2 x RocksDB (Docker)": (-34.0, None)}
SEED = "fio -43.5 % (AutoStream -10.7 %), RocksDB -35.9 %, MySQL -21 % (AutoStream -4 %), two RocksDB in Docker -34 %"
SEED_PERIOD = "1, 5 or 10 s periods over runs of about an hour"

INTRO = """\
**Setup.** The recordings of [workloads.md](workloads.md), each replayed open loop on the drive it was recorded
on: the 1 GiB drive (`configs/workloads-1g.yaml`: 4 channels x 2 dies, 292 blocks a plane of 64 pages of 8 KiB,
1 GiB exported, 12.3 % spare, preconditioned full, greedy GC below 16 free blocks) for all but `fio-streams`, and
the same drive at 4 GiB (`configs/workloads.yaml`: 1168 blocks a plane, set per recording in the sweep) for
`fio-streams`. The recordings: Filebench's `fileserver` and `varmail` personalities (by `fbp` on ext4 in the
Linux guest), and the seed's own kinds of application: its fio job (`fio-streams`: four fio jobs at once, each in
its own file with its own block size (4-256 KiB) and write rate (1:2:3:4), 80 % of each job's writes on a tenth
of a window that moves every round), MariaDB 10.11 under sysbench's `oltp_read_write` (the MySQL case: 8 tables
of 200 MiB in all, InnoDB with O_DIRECT; `mariadb-oltp` and its `-seed2` run to 1.5 drive-writes, and
`mariadb-oltp-long`, the same job with `WL_SEED=1` run on to more than two), RocksDB's `db_bench` with a fill and
three overwrite rounds of 300 MiB (`rocksdb-1g`), and two `db_bench` instances side by side in their own
directories (`rocksdb-x2`, the seed's Docker case, 200 MiB each, a fill and two overwrite rounds). Filebench's
recordings and the 1 GiB databases are recorded twice, with `WL_SEED=1` and `WL_SEED=2` (`-seed2`: the same
job with Filebench's other file choices and sizes, db_bench's other keys, sysbench's other transactions), so
that a model trained on one recording can be scored on the other. Each ext4 recording starts with mke2fs's
discard of the whole device, which empties the drive before the application writes: all but the Filebench
recordings are replayed without it (`workload.leading_discards: drop`,
[traces.md](../traces.md#leading-discards): the file system made with `nodiscard` on the preconditioned drive,
whose old data stays valid until overwritten), so that the drive collects as a used drive does (`fio-streams`
replayed with the discard writes into an empty drive: WAF 1.00 under every placement); the Filebench recordings
are replayed as recorded. Placements as on [streams.md](streams.md): `none` (no stream IDs),
`autostream` (the chunk's temperature cluster of the last period), `lstm` (the seed's LSTM predicting each
chunk's next-period temperature), `oracle` (each write's real death-time class from a pre-pass of the trace) and
`haml` (HAML-SSD's in-drive placement, 6 classes, 1 MiB slices, no stream IDs). The seed's 8 streams and 10,000
chunks; the LSTM trains on the first 8 periods of the run (`host.predict.train_periods`) unless it is given a
model. A recording's timestamps are the serving drive's simulated time, so an open-loop replay on a slower
placement queues up: each recording is replayed at the smallest `workload.time_scale` (inter-arrival times
multiplied) of 1, 2, 4, ... at which no placement saturates, and the predictor's and HAML's periods are scaled by the
same factor so that a period covers the same requests (0.5 s of the recording). The LSTM's CPU time is charged
to the host: its multiply-accumulates at the measured `host.predict.cpu_ns_per_mac` (inference) and
`cpu_ns_per_train_mac` (training) ([performance.md](../performance.md)), and a period's new streams take effect
only when that work would have finished on one core. With `ftl.placement.policy: stream` each stream has its own
open block on every die (8 streams x 8 dies x 512 KiB = 32 MiB: 22 % of the 1 GiB drive's 144 MiB spare, 5.6 %
of the 4 GiB drive's 576 MiB; the seed's drive is 960 GB). Three seeds of the
predictor (`host.predict.seed`: the LSTM's weights and batch order); the other placements make no random choice,
so their three runs agree. A cell is the mean and, after ±, the half-width of its 95 % interval (Student's t)."""


def _name(trace) -> str:
    return Path(str(trace)).name.replace(".iolog", "")


def _label(df: pd.DataFrame) -> pd.DataFrame:
    df = df[df["status"].isin(["ok", "violations"])].copy()
    if PLACE in df:
        df["placement"] = [p if p == "haml" else s for s, p in zip(df[STREAMS].astype(str), df[PLACE].astype(str))]
    else:
        df["placement"] = df[STREAMS].astype(str)
    df["workload"] = df["config.workload.trace"].astype(str).map(_name)
    df["ts"] = pd.to_numeric(df["config.workload.time_scale"], errors="coerce")
    return df


def _partner(w: str) -> str:
    """The other recording of the same application (whose model a held-out run loads)."""
    return w[: -len("-seed2")] if w.endswith("-seed2") else w + "-seed2"


def _sel(df: pd.DataFrame, w: str, p: str) -> pd.DataFrame:
    return df[(df["workload"] == w) & (df["placement"] == p)]


def _none_mean(df: pd.DataFrame, w: str, col: str = "ftl.waf") -> float:
    return mean_ci(_sel(df, w, "none")[col])[0]


def _pct(runs: pd.DataFrame, base: float, col: str = "ftl.waf") -> list[float]:
    """Each run's % change of col against base (the no-stream mean: no random choice, so one value)."""
    return [100 * (x / base - 1) for x in runs[col] if x == x and base == base and base]


def _ci_str(xs, fmt="+.1f", unit=" %") -> str:
    """fmt_ci with a unit; a signed format signs the mean only."""
    v = [float(x) for x in xs if x == x]
    if not v:
        return "n/a"
    m, h = mean_ci(v)
    return format(m, fmt) + (" ± " + format(h, fmt.lstrip("+")) if len(v) > 1 else "") + unit


def _table(df: pd.DataFrame, col: str, fmt: str, order=ORDER) -> pd.DataFrame:
    rows = []
    for w in sorted(df["workload"].unique()):
        rows.append({"workload": w, **{p: fmt_ci(_sel(df, w, p)[col], fmt) for p in order}})
    return pd.DataFrame(rows)


# ---- time scale -------------------------------------------------------------

def _sat(df: pd.DataFrame) -> pd.Series:
    return df["warnings"].astype(str).str.contains("outran") if "warnings" in df else pd.Series(False, df.index)


def _scale_section(main: pd.DataFrame, sc: pd.DataFrame | None) -> tuple[list[str], dict]:
    """The saturated placements per recording and time scale, the factor chosen (the smallest with none), and
    whether the main sweep replays at that factor."""
    if sc is None or sc.empty:
        return [], {}
    sc = sc.assign(sat=_sat(sc))
    rows, chosen = [], {}
    for w in sorted(sc["workload"].unique()):
        row = {"recording": w}
        for ts in sorted(sc["ts"].unique()):
            sub = sc[(sc["workload"] == w) & (sc["ts"] == ts)]
            if sub.empty:
                row[f"x{ts:g}: saturated"] = "not run"
                continue
            bad = [p for p in ORDER if sub[(sub["placement"] == p)]["sat"].any()]
            row[f"x{ts:g}: saturated"] = ", ".join(bad) if bad else "none"
            if not bad and w not in chosen:
                chosen[w] = ts
        row["chosen"] = f"x{chosen[w]:g}" if w in chosen else "none of these"
        used = sorted(main[main["workload"] == w]["ts"].dropna().unique())
        row["replayed at"] = ", ".join(f"x{u:g}" for u in used)
        rows.append(row)
    agree = all(w in chosen and list(sorted(main[main["workload"] == w]["ts"].unique())) == [chosen[w]]
                for w in chosen)
    lines = ["## Time scale: de-saturating the replay", "",
             "Which placements saturated (the open-loop arrivals outran the drive, so latencies are mostly host "
             "queueing) at each `workload.time_scale`, one predictor seed, periods scaled with the factor "
             f"(sweep `explore/sweeps/{SCALE}.yaml`); the factor chosen is the smallest at which none did.", "",
             markdown_table(pd.DataFrame(rows)), "",
             ("Every recording below is replayed at its chosen factor." if agree else
              "**The main sweep does not replay every recording at its chosen factor**: its figures are not "
              "de-saturated; change the factors in explore/sweeps/streams-recorded.yaml."), ""]
    return lines, chosen


# ---- train on one recording, score on another ------------------------------

def _paired(main: pd.DataFrame, held: pd.DataFrame, w: str, col: str) -> list[float]:
    """Per predictor seed s, the held-out run's col minus the same-run lstm run's (seed s: the held-out run loads
    the model the other recording's seed-s run trained from the same start). WAF as its change against the
    no-stream mean, in percentage points."""
    same, ho = _sel(main, w, "lstm"), held[held["workload"] == w]
    if col == "ftl.waf":
        base = _none_mean(main, w)
        get = lambda r: dict(zip(r[SEEDCOL].astype(str), _pct(r, base)))  # noqa: E731
    else:
        get = lambda r: dict(zip(r[SEEDCOL].astype(str), r[col]))  # noqa: E731
    a, b = get(ho), get(same)
    return [a[k] - b[k] for k in sorted(a) if k in b and a[k] == a[k] and b[k] == b[k]]


def _diff_word(d: list[float]) -> str:
    """'higher' or 'lower' when the paired difference's 95 % interval excludes 0, else 'no difference'."""
    m, h = mean_ci(d)
    if len(d) < 2 or m != m:
        return "n/a"
    return "higher" if m - h > 0 else "lower" if m + h < 0 else "no difference"


def _against_same(main: pd.DataFrame, held: pd.DataFrame, w: str) -> str:
    rho, waf = _paired(main, held, w, "host.predictor.lstm.spearman"), _paired(main, held, w, "ftl.waf")
    return (f"rank corr. {_ci_str(rho, '+.3f', '')} ({_diff_word(rho)}); "
            f"WAF vs none {_ci_str(waf, '+.1f', ' pp')} ({_diff_word(waf)})")


def _heldout_rows(main: pd.DataFrame, held: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for w in sorted(main["workload"].unique()):
        same, ho = _sel(main, w, "lstm"), held[held["workload"] == w]
        base = _none_mean(main, w)
        rows.append({"scored on": w, "trained on": "the same run (first 8 periods)",
                     "periods scored": fmt_ci(same["host.predictor.lstm_periods_scored"], ".0f"),
                     "MAE": fmt_ci(same["host.predictor.lstm.mae"], ".3f"),
                     "rank correlation": fmt_ci(same["host.predictor.lstm.spearman"], ".3f"),
                     "WAF": fmt_ci(same["ftl.waf"], ".3f"), "WAF vs none": _ci_str(_pct(same, base))})
        if len(ho):
            rows.append({"scored on": w, "trained on": f"{_partner(w)} (held out)",
                         "periods scored": fmt_ci(ho["host.predictor.lstm_periods_scored"], ".0f"),
                         "MAE": fmt_ci(ho["host.predictor.lstm.mae"], ".3f"),
                         "rank correlation": fmt_ci(ho["host.predictor.lstm.spearman"], ".3f"),
                         "WAF": fmt_ci(ho["ftl.waf"], ".3f"), "WAF vs none": _ci_str(_pct(ho, base)),
                         "held out minus same run (paired by seed)": _against_same(main, held, w)})
        auto = _sel(main, w, "autostream")
        rows.append({"scored on": w, "trained on": "AutoStream (last period's temperature)",
                     "periods scored": fmt_ci(same["host.predictor.periods"] - 1, ".0f"),
                     "MAE": fmt_ci(same["host.predictor.autostream.mae"], ".3f"),
                     "rank correlation": fmt_ci(same["host.predictor.autostream.spearman"], ".3f"),
                     "WAF": fmt_ci(auto["ftl.waf"], ".3f"), "WAF vs none": _ci_str(_pct(auto, base))})
    return pd.DataFrame(rows)


# ---- CPU cost -----------------------------------------------------------------

def _cpu_rows(main: pd.DataFrame, free: pd.DataFrame | None) -> pd.DataFrame:
    rows = []
    for w in sorted(main["workload"].unique()):
        lstm = _sel(main, w, "lstm")
        if CPUCOL + "total_s" not in lstm:
            continue
        base = _none_mean(main, w)
        row = {"recording": w, "ns/MAC (inference, training)":
               f"{lstm[CPUCOL + 'ns_per_mac'].iloc[0]:g}, {lstm[CPUCOL + 'ns_per_train_mac'].iloc[0]:g}",
               "inference MACs a period": f"{mean_ci(lstm[CPUCOL + 'infer_macs_per_period'])[0]:.3g}",
               "training MACs": f"{mean_ci(lstm[CPUCOL + 'train_macs'])[0]:.3g}",
               "training (s)": fmt_ci(lstm[CPUCOL + "train_s"], ".2f"),
               "CPU a period (s)": fmt_ci(lstm[CPUCOL + "s_per_period"], ".3f"),
               "CPU total (s)": fmt_ci(lstm[CPUCOL + "total_s"], ".2f"),
               "share of one core": _ci_str(100 * lstm[CPUCOL + "core_share"], ".1f"),
               "switch delay mean / max (s)": f"{mean_ci(lstm[CPUCOL + 'switch_delay_s_mean'])[0]:.3f} / "
                                              f"{lstm[CPUCOL + 'switch_delay_s_max'].max():.3f}",
               "WAF vs none, charged": _ci_str(_pct(lstm, base))}
        if free is not None:
            f = free[free["workload"] == w]
            row["WAF vs none, not charged"] = _ci_str(_pct(f, base)) if len(f) else "not run"
            row["rank corr. charged / not"] = (f"{mean_ci(lstm['host.predictor.lstm.spearman'])[0]:.3f} / " +
                                               (f"{mean_ci(f['host.predictor.lstm.spearman'])[0]:.3f}" if len(f)
                                                else "not run"))
        rows.append(row)
    return pd.DataFrame(rows)


# ---- period and chunks ---------------------------------------------------------

def _sens_rows(main: pd.DataFrame, sens: pd.DataFrame) -> pd.DataFrame:
    rows = []
    sens = sens.assign(period=sens["config.host.predict.period"].astype(str),
                       chunks=pd.to_numeric(sens["config.host.predict.chunks"], errors="coerce"))
    sens["period_s"] = [_seconds(p) for p in sens["period"]]
    for (w, ps, ch), g in sens.groupby(["workload", "period_s", "chunks"], sort=True):
        base = _none_mean(main, w)
        ts = g["ts"].iloc[0]
        rows.append({"recording": w, "period (s, of the recording)": f"{ps / ts:g}", "chunks": f"{ch:,.0f}",
                     "LSTM trained": f"{(g['host.predictor.lstm_periods_scored'] > 0).sum()} of {len(g)}",
                     "LSTM rank corr.": fmt_ci(g["host.predictor.lstm.spearman"], ".3f"),
                     "AutoStream rank corr.": fmt_ci(g["host.predictor.autostream.spearman"], ".3f"),
                     "LSTM WAF vs none": _ci_str(_pct(g, base)),
                     "CPU share": _ci_str(100 * g[CPUCOL + "core_share"], ".0f") if CPUCOL + "core_share" in g
                     else ""})
    return pd.DataFrame(rows)


def _seconds(v: str) -> float:
    v = str(v).strip()
    for suf, f in (("ms", 1e-3), ("us", 1e-6), ("s", 1.0)):
        if v.endswith(suf):
            return float(v[: -len(suf)]) * f
    return float(v)


# ---- figures -----------------------------------------------------------------------

def _fig_waf(main: pd.DataFrame, held: pd.DataFrame | None, out: Path):
    from ..plots import plt, save
    wl = sorted(main["workload"].unique())
    fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(6 + 0.7 * len(wl), 3.6), sharey=True,
                                   gridspec_kw={"width_ratios": [len(SEED_WAF), len(wl)]})
    apps = list(SEED_WAF)
    for i, (lab, k) in enumerate((("LSTM", 0), ("AutoStream", 1))):
        vals = [SEED_WAF[a][k] if SEED_WAF[a][k] is not None else float("nan") for a in apps]
        ax0.bar([j + (i - 0.5) * 0.4 for j in range(len(apps))], vals, 0.4, label=lab,
                color="C2" if k == 0 else "C1")
    ax0.set_xticks(range(len(apps)), apps, rotation=25, ha="right")
    ax0.set_ylabel("WAF change vs no streams (%)")
    ax0.set_title("the seed (its Section 4.1)", fontsize=9)
    ax0.axhline(0, color="k", lw=0.6)
    ax0.legend(fontsize=7, frameon=False)
    series = [("autostream", "AutoStream", "C1"), ("lstm", "LSTM (same run)", "C2"),
              ("heldout", "LSTM (held out)", "C4"), ("oracle", "oracle", "C3"), ("haml", "HAML", "C5")]
    width = 0.8 / len(series)
    for i, (p, lab, col) in enumerate(series):
        ms, hs = [], []
        for w in wl:
            runs = held[held["workload"] == w] if p == "heldout" and held is not None else _sel(main, w, p)
            m, h = mean_ci(_pct(runs, _none_mean(main, w)))
            ms.append(m)
            hs.append(0 if h != h else h)
        ax1.bar([j + (i - (len(series) - 1) / 2) * width for j in range(len(wl))], ms, width, yerr=hs, capsize=2,
                label=lab, color=col)
    ax1.set_xticks(range(len(wl)), wl, rotation=15, ha="right")
    ax1.axhline(0, color="k", lw=0.6)
    ax1.set_title("here (recorded applications, 95 % intervals)", fontsize=9)
    ax1.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return save(fig, out)


def _fig_latency(main: pd.DataFrame, out: Path):
    from ..plots import plt, save
    wl = sorted(main["workload"].unique())
    cols = min(4, len(wl))
    rows = -(-len(wl) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 3.0 * rows), sharey=True, squeeze=False)
    width = 0.8 / len(ORDER)
    for ax in axes.flat[len(wl):]:
        ax.set_visible(False)
    for ax, w in zip(axes.flat, wl):
        for i, p in enumerate(ORDER):
            ms, hs = [], []
            for _, col in PCTS:
                m, h = mean_ci(_sel(main, w, p)[col])
                ms.append(m)
                hs.append(0 if h != h else h)
            ax.bar([j + (i - (len(ORDER) - 1) / 2) * width for j in range(len(PCTS))], ms, width, yerr=hs,
                   capsize=2, label=p, color=f"C{i}")
        ax.set_xticks(range(len(PCTS)), [n for n, _ in PCTS])
        ax.set_yscale("log")
        ax.set_title(w, fontsize=9)
    for r in range(rows):
        axes[r][0].set_ylabel("write latency (us, log)")
    axes[0][-1].legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0), title="placement",
                       title_fontsize=7)
    fig.tight_layout()
    return save(fig, out)


def _fig_sens(main: pd.DataFrame, sens: pd.DataFrame, out: Path):
    from ..plots import plt, save
    sens = sens.assign(period_s=[_seconds(p) for p in sens["config.host.predict.period"].astype(str)],
                       chunks=pd.to_numeric(sens["config.host.predict.chunks"], errors="coerce"))
    wl = sorted(sens["workload"].unique())
    fig, axes = plt.subplots(2, len(wl), figsize=(4 * len(wl), 5.4), squeeze=False, sharex=True)
    for j, w in enumerate(wl):
        base = _none_mean(main, w)
        for k, ch in enumerate(sorted(sens["chunks"].unique())):
            g = sens[(sens["workload"] == w) & (sens["chunks"] == ch)]
            xs = sorted(g["period_s"].unique())
            for row, (get, yl) in enumerate(((lambda d: d["host.predictor.lstm.spearman"], "LSTM rank correlation"),
                                             (lambda d: _pct(d, base), "LSTM WAF vs none (%)"))):
                st = [mean_ci(list(get(g[g["period_s"] == x]))) for x in xs]
                ts = g["ts"].iloc[0]
                axes[row][j].errorbar([x / ts for x in xs], [m for m, _ in st], yerr=[0 if h != h else h for _, h in st],
                                      marker="o", capsize=2, label=f"{ch:,.0f} chunks", color=f"C{k}")
                axes[row][j].set_ylabel(yl)
            auto = [mean_ci(g[g["period_s"] == x]["host.predictor.autostream.spearman"])[0] for x in xs]
            axes[0][j].plot([x / g["ts"].iloc[0] for x in xs], auto, ls=":", color=f"C{k}",
                            label=f"AutoStream, {ch:,.0f} chunks")
        axes[0][j].set_title(w, fontsize=9)
        axes[1][j].axhline(0, color="k", lw=0.6)
        axes[1][j].set_xscale("log", base=2)
        axes[1][j].set_xlabel("period (s of the recording)")
    axes[0][-1].legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return save(fig, out)


def _figure(ctx, draw, stem: str, alt: str, caption: str) -> list[str]:
    out = Path(ctx.extra.get("out_dir", "docs/results")) / ctx.page.name / stem
    try:
        if ctx.extra.get("draw", True):
            draw(out)
        return [f"![{alt}]({ctx.page.name}/{stem}.png)", "", f"*{caption}*", ""]
    except Exception as e:   # a figure that cannot be drawn must not lose the page
        return [f"(figure not drawn: {e})", ""]


# ---- the page --------------------------------------------------------------------

def _best_sens(main: pd.DataFrame, sens: pd.DataFrame | None) -> str:
    """The sensitivity point with the lowest mean LSTM WAF change per recording, and its rank correlation."""
    if sens is None or sens.empty:
        return ""
    out = []
    for w in sorted(sens["workload"].unique()):
        base, best = _none_mean(main, w), None
        for (p, ch), g in sens[sens["workload"] == w].groupby(["config.host.predict.period", "config.host.predict.chunks"]):
            m, h = mean_ci(_pct(g, base))
            if best is None or m < best[0]:
                best = (m, h, _seconds(str(p)) / g["ts"].iloc[0], ch, mean_ci(g["host.predictor.lstm.spearman"]),
                        mean_ci(g["host.predictor.autostream.spearman"])[0])
        m, h, ps, ch, rho, rho_a = best
        out.append(f"{w} {m:+.1f} ± {h:.1f} % at a {ps:g} s period and {float(ch):,.0f} chunks (rank correlation "
                   f"{rho[0]:.3f} ± {rho[1]:.3f}, AutoStream's {rho_a:.3f})")
    return "; ".join(out)


def _heldout_verdicts(main, held, hw, lstm, band, fmt) -> list[str]:
    """The rows on the LSTM scored on a recording it was not trained on: its predictions against the same-run
    model's (paired by seed), and, on the databases, the seed's WAF claim with the held-out model."""
    rho_h = {w: mean_ci(held[held["workload"] == w]["host.predictor.lstm.spearman"]) for w in hw}
    diff = {w: _paired(main, held, w, "host.predictor.lstm.spearman") for w in hw}
    worse = [w for w in hw if _diff_word(diff[w]) == "lower"]
    v = ("holds on all " + str(len(hw)) if not worse else "does not hold" if len(worse) == len(hw) else
         f"holds on {len(hw) - len(worse)} of {len(hw)}") + " recordings"
    rows = ["| (not the seed's claim: what its method needs) a model trained on one run of an application predicts "
            "another run of it as well as a model trained on that run | — | held-out rank correlation, and its "
            "difference to the same run's (paired by seed): " +
            ", ".join(f"{w} {rho_h[w][0]:.3f} ± {rho_h[w][1]:.3f} ({_ci_str(diff[w], '+.3f', '')})" for w in hw) +
            f"; significantly lower on {len(worse)} of {len(hw)} recordings | {v} |"]
    db = [w for w in hw if w.startswith(DBS)]
    if db:
        waf_h = {w: band(w, held[held["workload"] == w]) for w in db}
        vd = _waf_claim(waf_h)
        rows.append("| the LSTM's streams cut WAF on the seed's kinds of application, with the model trained on "
                    "another run of the application (held out) | RocksDB -35.9 %, MySQL -21 % | LSTM held out: " +
                    fmt(waf_h) + "; trained on the same run: " + fmt({w: lstm[w] for w in db}) + f" | {vd} |")
    return rows


def _waf_claim(bands: dict) -> str:
    """The seed's WAF claim against (mean, half-width) per recording: reproduced when every interval lies below
    -15 %, partly when one lies below -3 %."""
    if all(m + h < -15 for m, h in bands.values()):
        return "reproduced"
    return "partly reproduced" if any(m + h < -3 for m, h in bands.values()) else "not reproduced"


def _verdicts(main: pd.DataFrame, held: pd.DataFrame | None, wl: list[str], sens=None) -> list[str]:
    def band(w, runs):
        return mean_ci(_pct(runs, _none_mean(main, w)))

    lstm = {w: band(w, _sel(main, w, "lstm")) for w in wl}
    auto = {w: band(w, _sel(main, w, "autostream")) for w in wl}
    orc = {w: band(w, _sel(main, w, "oracle")) for w in wl}
    fmt = lambda d: ", ".join(f"{w} {m:+.1f} ± {h:.1f} %" for w, (m, h) in d.items())  # noqa: E731
    v1 = _waf_claim(lstm)
    better = [w for w in wl if lstm[w][0] + lstm[w][1] < auto[w][0] - auto[w][1]]
    v2 = ("reproduced" if len(better) == len(wl) else "partly reproduced" if better else "not reproduced")
    rho_l = {w: mean_ci(_sel(main, w, "lstm")["host.predictor.lstm.spearman"]) for w in wl}
    rho_a = {w: mean_ci(_sel(main, w, "lstm")["host.predictor.autostream.spearman"]) for w in wl}
    pred_better = [w for w in wl if rho_l[w][0] - rho_l[w][1] > rho_a[w][0]]
    v3 = ("reproduced" if len(pred_better) == len(wl) else "partly reproduced" if pred_better else "not reproduced")
    rows = ["| claim (the seed) | the seed | here | verdict |", "|---|---|---|---|",
            f"| the LSTM's streams cut WAF against no streams | {SEED} | LSTM: {fmt(lstm)}; the oracle bounds any "
            f"stream assignment: {fmt(orc)} | {v1} |",
            f"| the LSTM cuts WAF more than AutoStream (last period's temperature) | LSTM -43.5 % against AutoStream "
            f"-10.7 % (fio), -21 % against -4 % (MySQL) | AutoStream: {fmt(auto)}; LSTM's interval below "
            f"AutoStream's on {len(better)} of {len(wl)} recordings | {v2} |",
            "| the LSTM predicts a chunk's next-period temperature better than its last period does | the premise "
            "of the method | rank correlation, LSTM against AutoStream's rule on the same runs: " +
            ", ".join(f"{w} {rho_l[w][0]:.3f} ± {rho_l[w][1]:.3f} / {rho_a[w][0]:.3f}" for w in wl) +
            f" | {v3} |"]
    note = ("AutoStream's rule is scored from the 3rd period, the trained LSTM from the 10th (after its 8 "
            "training periods): not the same periods.")
    hw = [w for w in wl if held is not None and (held["workload"] == w).any()]
    if hw:
        rows += _heldout_verdicts(main, held, hw, lstm, band, fmt)
    best = _best_sens(main, sens)
    if best:
        rows.append("| (the seed's setting is not ours) the LSTM's best WAF over the period and chunk sweep | — | "
                    f"{best} | measured |")
    return rows + ["", note]


def render(ctx) -> str:
    main = _label(ctx.table)
    tables = {k: _label(v) for k, v in ctx.extra.get("tables", {}).items()}
    held, free, sc, sens = (tables.get(HELD), tables.get(CPU), tables.get(SCALE), tables.get(SENS))
    wl = sorted(main["workload"].unique())
    n = main.groupby(["workload", "placement"]).size()
    runs = len(main) + sum(len(t) for t in tables.values())
    scale_lines, chosen = _scale_section(main, sc)
    factors = ", ".join(f"{w} x{main[main['workload'] == w]['ts'].iloc[0]:g}" for w in wl)
    find = []
    for w in wl:
        base = _none_mean(main, w)
        parts = ", ".join(f"{p} {_ci_str(_pct(_sel(main, w, p), base))}" for p in ORDER[1:])
        find.append(f"- **{w}** (WAF {base:.3f} with no streams, replayed at x"
                    f"{main[main['workload'] == w]['ts'].iloc[0]:g}): WAF against `none`: {parts}.")
    lines = opening(ctx, "streams_recorded.py", INTRO, runs, f"{n.min()}-{n.max()}")
    lines += [f"Of these, {len(main)} are the main sweep's (`explore/sweeps/streams-recorded.yaml`) and " +
              ", ".join(f"{len(t)} `{k}`'s" for k, t in tables.items()) + " (`explore/sweeps/<name>.yaml`, run "
              "after it by the same command). Time scale per recording (the chosen factor, see *Time scale*): "
              f"{factors}.", "",
              "## Verdict", "", *_verdicts(main, held, wl, sens), "",
              "## The seed's figure beside ours", ""]
    lines += _figure(ctx, lambda out: _fig_waf(main, held, out), "waf_vs_seed", "WAF change against no streams",
                     "Left: the seed's WAF change against no streams (its numbers, typed in; no intervals given), on the same axis as ours. "
                     "Right: here, per recording and placement, the mean over predictor seeds and its 95 % interval "
                     "(LSTM held out: the model trained on the other recording of the same application)")
    nsat = int(_sat(main).sum())
    lines += ["## What the runs show", "", *find, "",
              saturated(main, "placement") if nsat else f"None of the {len(main)} runs saturated (no run warned that "
              "its open-loop arrivals outran the drive).", ""]
    lines += scale_lines
    if held is not None:
        lines += ["## Train on one recording, score on another", "",
                  "The LSTM trained on a recording's first 8 periods (its model saved by `host.predict.model_out`, "
                  "kept in [models/](streams-recorded/models/)) and loaded without retraining "
                  "(`host.predict.model`) on the other recording of the same application, same time scale, "
                  f"same seed (sweep `explore/sweeps/{HELD}.yaml`), beside the same-run figures. A loaded model "
                  "predicts from the 6th period (k = 5 records), a trained one from the 10th, so the periods "
                  "scored differ; AutoStream's rule is scored on every period from the 3rd of the same-run runs. "
                  "MAE in temperature (writes a chunk a period); a rank correlation near 0 orders chunks no better "
                  "than chance. The last column is the held-out run's rank correlation and WAF change against no "
                  "streams minus the same-run run's of the same predictor seed (the held-out model was trained "
                  "from the same start on the other recording): the mean of the three differences, its 95 % "
                  "interval, and 'higher' or 'lower' when that interval excludes 0. How held out the other "
                  "recording is: each job seeds its round r with `WL_SEED` + r (db_bench's `--seed`, sysbench's "
                  "`--rand-seed`, fbp's seed), so the `WL_SEED=2` recording's round r draws from the seed of the "
                  "`WL_SEED=1` recording's round r + 1, on another state of the data set and the file system; "
                  "sysbench's prepare is not seeded.", "",
                  markdown_table(_heldout_rows(main, held)), ""]
    cpu = _cpu_rows(main, free)
    if not cpu.empty:
        lines += ["## The predictor's CPU cost", "",
                  "Charged in every lstm run above: the LSTM's multiply-accumulates (inference over every chunk "
                  "each period; the training once, after period 8) at the measured ns per MAC "
                  "([performance.md](../performance.md)); a period's streams take effect when that work would have "
                  "finished on one host core (the switch delay after the period's end). The same runs with both "
                  f"keys 0 (sweep `explore/sweeps/{CPU}.yaml`) show what the charge does to the placement. The "
                  "share of one core is the CPU time over the replay's span (periods x period); it falls with the "
                  "time scale, which stretches the span but not the work. The predictions are the same charged or "
                  "not (so is their rank correlation); only when they take effect differs.", "",
                  markdown_table(cpu), ""]
    if sens is not None and len(sens):
        lines += ["## Period and chunk count", "",
                  f"The seed's periods ({SEED_PERIOD}) are 7-250 times the whole of our recordings, so the period "
                  "is swept as a share of the run (in seconds of the recording: the simulated period is that times "
                  "the time scale), with 1,000, 10,000 and 100,000 chunks, the LSTM training on the first 8 periods "
                  "(2 s periods only on varmail: 8 of them outlast fileserver's recording), CPU charged "
                  f"(sweep `explore/sweeps/{SENS}.yaml`; WAF against the main sweep's `none`). A CPU share above "
                  "100 % means the host core cannot keep up: each period's streams apply later than the last's.", "",
                  markdown_table(_sens_rows(main, sens)), ""]
        lines += _figure(ctx, lambda out: _fig_sens(main, sens, out), "sensitivity",
                         "Rank correlation and WAF against period and chunks",
                         "The LSTM's rank correlation (top; dotted: AutoStream's rule in the same runs) and WAF "
                         "change against no streams (bottom) per period and chunk count; mean over predictor seeds "
                         "and its 95 % interval")
    lines += ["## WAF", "", markdown_table(_table(main, "ftl.waf", ".3f")), ""]
    for name, col in PCTS:
        lines += [f"## {name} write latency (us)", "", markdown_table(_table(main, col, ".0f")), ""]
    lines += _figure(ctx, lambda out: _fig_latency(main, out), "write_latency",
                     "Write latency percentiles per placement",
                     "p50, p99, p99.9 and p99.99 write latency (log axis) per recording and placement, at the "
                     "de-saturating time scale; bar: the mean over predictor seeds, whisker: its 95 % interval")
    lines += ["## Erases", "", markdown_table(_table(main, "ftl.erases", ".0f")), ""]
    lines += closing(ctx, _reviewer(main, held, free, cpu), "configs/workloads-1g.yaml")
    return "\n".join(lines)


def _reviewer(main, held, free, cpu) -> str:
    wl = sorted(main["workload"].unique())
    sat = int(_sat(main).sum())
    share = [mean_ci(100 * _sel(main, w, "lstm")[CPUCOL + "core_share"])[0] for w in wl
             if CPUCOL + "core_share" in main]
    db = [w for w in wl if w.startswith(SEED_KINDS)]
    span = main.assign(rec_s=main["host.sim_time_s"] / main["ts"]).groupby("workload")["rec_s"].mean()
    out = [("- *These are not the seed's applications.* " + (
            f"Partly: {', '.join(db)} are its kinds (its fio job's shape, RocksDB's db_bench alone and two "
            "side by side in separate directories rather than Docker containers, MariaDB under sysbench's OLTP "
            "load rather than its TPC-C on MySQL), recorded on ext4 in the guest on a 1 GiB drive (fio-streams: "
            "4 GiB), not on its 960 GB drive; the others are Filebench's fileserver and varmail." if db else
            "No: Filebench's fileserver and varmail on ext4, recorded in the guest. The seed's RocksDB and MySQL "
            "runs need recordings of db_bench and a TPC-C-like MariaDB load on a drive large enough for their "
            "compactions ([workloads.md](workloads.md)).")),
           "- *The LSTM trains and is scored on the same run.* The main runs do (8 training periods, then it "
           "predicts the rest); the held-out runs load the model trained on the other recording of the same "
           "application and do not train" + (
               f" ({len(set(held['workload']))} recordings: " + ", ".join(sorted(set(held["workload"]))) + ")"
               if held is not None and len(held) else "") + ": see *Train on one recording, score on another*."]
    if share:
        out.append(f"- *Its CPU time is not charged.* It is: {min(share):.1f}-{max(share):.1f} % of one core over "
                   "the replay, and the streams of a period switch only when its inference (and, once, the "
                   "training) would have finished; the same runs uncharged are in *The predictor's CPU cost*.")
    out += [f"- *The runs are saturated.* {sat} of {len(main)} main runs are, at the time scales chosen from "
            "*Time scale* (the smallest factor at which no placement saturated in that sweep's seed).",
            "- *The periods are the seed's?* No: the seed's 1-10 s periods ran over hour-long runs, ours over "
            f"runs of {span.min():.1f}-{span.max():.1f} s of recording (the serving drive's simulated time); *Period "
            "and chunk count* sweeps the period as a share of the run and the chunk count.",
            "- *The replay cannot slow the application down.* A block replay issues its requests at their recorded "
            "(scaled) times, whatever the placement; throughput effects (the seed's tpmC and Docker figures) need "
            "the application run live on the drive.",
            "- *Is the spread noise?* Three predictor seeds per point; the recordings and the other placements are "
            "fixed (two recordings of each application show how much the data set's draw matters)."]
    return "\n".join(out)


register(Page(name="streams-recorded", title="Multi-stream placement on recorded applications",
              sweep="explore/sweeps/streams-recorded.yaml", by=STREAMS, baseline="none", render=render,
              keep=("models",), then=(f"explore/sweeps/{HELD}.yaml", f"explore/sweeps/{CPU}.yaml",
                                      f"explore/sweeps/{SCALE}.yaml", f"explore/sweeps/{SENS}.yaml")))
