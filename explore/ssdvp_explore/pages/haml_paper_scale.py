"""The text of docs/results/haml.md's "At the paper's scale (HAML-SSD Table III)"
section, rendered from docs/results/haml/paper_scale.csv.

Every figure the CSV holds (WAFs, erases, latencies, classes' shares and rank
correlations, CPU seconds, peak RSS) and every comparison drawn from them
(percentages between policies, "lowest", "above on all three") is computed
here from the rows, so the prose follows the table when the CSV is
regenerated. What the CSV does not hold is typed, each marked `# typed:` with
where it comes from: the drive's geometry and the workloads' keys (configs),
the 1 GiB figures of the runs the section was written against, the per-window
WAFs of `scripts/haml_scale.py --split 20` and the timeseries, ageing CPU and
wall times, memory measurements, dates and command lines.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

# typed: configs/haml_table3.yaml and configs/haml_table3_policies.yaml (the
# Table III drive, 256 GiB exported in 4 KiB LBAs; the synthetic workloads
# write the first half of it, 80 % of their writes to a window of 10 % of it)
LBAS = 256 * 2**30 // 4096
WRITTEN_HALF = LBAS // 2
HOT_WINDOW = WRITTEN_HALF // 10
HOT_SHARE = 0.8
NAME = {"single": "`single`", "double": "`double`", "hotis": "HOTIS", "asa": "ASA-FTL", "haml": "HAML-K",
        "stream": "the oracle"}
POLICIES = ["single", "double", "hotis", "asa", "haml", "stream"]
MONITORED = ["hotis", "asa", "haml"]
WORDS = ["none", "one", "two", "three", "four", "five", "six"]


def and_list(items) -> str:
    """The items as prose: a; a and b; a, b and c."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def rnd(x: float, nd: int) -> Decimal:
    """x rounded half up to nd decimals (as the figures were rounded by hand)."""
    return Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-nd), ROUND_HALF_UP)


def fmt(x: float, nd: int = 3) -> str:
    """x with nd decimals and thousands separators; never "-0"."""
    d = rnd(x, nd)
    return f"{(d if d != 0 else abs(d)):,.{nd}f}"


def pct(a: float, b: float, nd: int | None = None, sign: bool = True) -> str:
    """a against b in percent; nd None: two significant figures (one decimal below 10 %)."""
    v = (a / b - 1) * 100
    if nd is None:
        nd = 1 if abs(v) < 9.95 else 0
    s = fmt(v if sign else abs(v), nd)
    return ("+" + s if sign and rnd(v, nd) > 0 else s)


def span(values, nd: int = 0, scale: float = 1.0) -> str:
    """The range of values as "lo-hi" ("lo to hi" if lo is negative; one figure if both round alike)."""
    lo, hi = fmt(min(values) / scale, nd), fmt(max(values) / scale, nd)
    return lo if lo == hi else f"{lo} to {hi}" if lo.startswith("-") else f"{lo}-{hi}"


class Rows:
    """The CSV's rows by (workload, policy, scale): scale 1 for about 1 M
    host writes, 10 for about 10 M (the -10m workloads and PostMark)."""

    def __init__(self, rows: list[dict]):
        self.by = {}
        for r in rows:
            scale = 10 if float(r["host_lba_writes"]) > 5e6 else 1
            self.by[(r["workload"], r["policy"], scale)] = r

    def __call__(self, w: str, p: str, col: str, n: int = 1) -> float:
        if (w, p, n) not in self.by:
            raise KeyError(f"paper_scale.csv has no row {w}/{p} at about {n} M writes, which the section's text needs")
        v = self.by[(w, p, n)][col]
        if v in ("", None):
            raise KeyError(f"{w}/{p} at {n} M writes has no {col} in paper_scale.csv")
        return float(v)

    def waf(self, w, p, n=1) -> str:
        return fmt(self(w, p, "waf", n), 3)

    def cpu(self, w, p, n=1) -> float:
        return self(w, p, "cpu_user_s", n) + self(w, p, "cpu_sys_s", n)


def render(rows: list[dict], table: str) -> str:
    """The section's markdown; table is the rendered paper_scale.csv."""
    d = Rows(rows)
    W = d.waf
    parts = []

    # typed: the run notes (dates, branch) and the drive's geometry, from
    # configs/haml_table3.yaml (8 x 8 dies x 2400 blocks x 256 pages x 8 KiB;
    # 100 MB slices of 256 GiB are 2,560)
    parts.append("""\
## At the paper's scale (HAML-SSD Table III)

Measured by hand (not by the sweep: a paper-scale point is ageing a 256 GiB
drive), 2026-11-25, branch `hamlscale`, with `scripts/haml_scale.py`.
`configs/haml_table3_policies.yaml` is this page's method and policy settings
on the Table III drive (`configs/haml_table3.yaml`: 300 GiB of flash in 8 x 8
dies x 2400 blocks x 256 pages x 8 KiB, 256 GiB exported, greedy GC at 128
free blocks) with the paper's 100 MB slices (2,560 slices) and the synthetic
workloads' T = 8 s. Every point ran with `ftl.write.at_floor: pass`, the
default when they ran; the config sets it explicitly, so the points stay
reproducible after the default turns to `room`. None was rerun
under `room`.

These points ran under `ftl.write.at_floor: pass`, the default before it became `room`; `configs/haml_table3_policies.yaml` pins it so that the commands below reproduce them.""")

    # typed: 134 M = two drive-writes of 4 KiB LBAs (fill and overwrites);
    # 89-97 s of ageing CPU and 1.3 GB per saved drive from the runs' logs
    # (ageing is not a row of the CSV); 5,000 IOPS and T = 8 s from the config
    parts.append("""\
**Method at this scale.** A placement policy shapes the drive it ages (its
`ftl.*` keys are checked when a saved drive is loaded, docs/state.md), so the
drive is aged once per policy, not once per workload: the sequential fill and
one drive-write of uniform random overwrites (134 M functional LBA writes,
89-97 s of CPU, saved with `--save-state`, 1.3 GB on disk). Ageing does not
run the workload (`precondition.workload_fraction=0`, unlike the 1 GiB runs'
functional first half), so one saved drive serves every workload of its
policy, and each point loads it (`--load-state`) and times its whole workload:
N host writes of the synthetic workload (N / 0.8 requests at 5,000 IOPS; 10 M
writes are 2,500 s simulated). The monitor starts untrained and classifies
first at 8 s. Every point carries the oracle's stream IDs (`host.streams=oracle`,
used for placement only by the oracle), so each policy's classes are compared
with real death times as in the 1 GiB tables. One run per point.""")

    n10, n1 = d("hotcold", "double", "host_lba_writes", 10), d("hotcold", "double", "host_lba_writes")
    gib10 = fmt(n10 * 4096 / 2**30, 0)
    dw10 = fmt(100 * n10 / LBAS, 0)
    hot10 = fmt(HOT_SHARE * n10 / HOT_WINDOW, 1)
    cold10 = fmt((1 - HOT_SHARE) * n10 / (WRITTEN_HALF - HOT_WINDOW), 2)
    hot1 = fmt(HOT_SHARE * n1 / HOT_WINDOW, 2)
    # typed: the window's size (12.8 GiB, 3.4 M LBAs) and its 32k writes per
    # position (50k requests x 0.8 writes x 0.8 to the window) from the
    # workload's keys; 2.8 rewrites per position at 1 GiB from the 1 GiB config
    parts.append(f"""\
**What the workloads are at this scale.** The same keys as at 1 GiB, so the
same fractions: the hot window of `hotcold` is 10 % of the written half, 12.8 GiB
(3.4 M LBAs); 10 M writes ({gib10} GiB, {dw10} % of a drive-write) write each hot LBA
{hot10} times on average and each cold LBA of the written half {cold10} times (1 M
writes: {hot1} times). `shifting` moves its window on by its own size every 50k
requests (10 s), which at 1 GiB writes each LBA of the window 2.8 times before
it moves; at 256 GiB the window receives 32k writes per position, 1 % of its
LBAs, so `shifting` is close to uniform writes over the written half here.""")

    pm = fmt(d("postmark", "haml", "host_lba_writes", 10) / 1e6, 1)
    # typed: the traces' extents, volumes and distinct LBAs, counted from the
    # trace files; passes, speeds and replay lengths chosen by
    # scripts/haml_scale.py (its workload table); the rewrites per distinct
    # LBA from those counts (the CSV has no distinct-LBA column)
    parts.append(f"""\
**Real traces**: all four fit the 256 GiB namespace at their own LBAs
(highest byte written or read: the MSR excerpt 14 GiB, DTRS 153 GiB, PostMark
21 GiB, TPC-C 217 GiB), so none is folded. They write little per pass (MSR
49 MiB, TPC-C 22 MiB, DTRS 726 MiB, PostMark 8.5 GiB), and fewer distinct
LBAs (MSR 23 MiB, TPC-C 31 MiB of 4 KiB LBAs, DTRS 0.7 GiB, PostMark 5.8 GiB).
Each replay is sped up or slowed down to last about 25 periods of 8 s (the
1 GiB rule, T = 1/25 of the replay), which lets the traces load the synthetic
points' drives (`ftl.hot.*` is part of a saved drive). PostMark reaches the
synthetic points' volume: 5 passes, {pm} M LBA writes, at 12.5x speed (196 s).
The other three are looped to about 1 M LBA writes, a 1 M-write synthetic
point's volume: MSR 70 passes at 0.012 of its recorded time (204 s), DTRS 5
passes at 0.0013 (195 s), TPC-C 125 passes at 12x its recorded time (205 s; its
16 devices replayed as one, at their own LBAs, as at 1 GiB). Looped, they
rewrite a small set many times: each distinct LBA the MSR excerpt writes is
written 172 times in its replay, TPC-C's 127 times, DTRS's 5 and PostMark's 7
times, where `hotcold` writes each LBA of its hot window {hot1} times in 1 M
writes.""")

    parts.append(table)

    # typed: "a 2-core machine shared by nine engineers", the machine the runs used
    parts.append("""\
`hottest class share`: share of host writes the policy's hottest class
received; `rank corr.` and `never rewritten in hottest` are the 1 GiB tables'
Spearman correlation with the oracle's death-time class and the share of the
hottest class's LBAs never rewritten in the timed part. CPU is the point's
own (loading the drive and the timed part), measured on a 2-core machine
shared by nine engineers. Peak RSS: the rows `single` at 10 M writes (both
workloads) and later are the point's own process (`/usr/bin/time`); the
earlier rows are the largest RSS of any process the script had run before
(`RUSAGE_CHILDREN`), so a 1 M row's figure may be its drive's ageing.""")

    bullets = []
    # typed: the 1 GiB figures quoted in this section are those of the 1 GiB
    # runs of 2026-11-25 it was written against, not the current table.csv:
    # docs/results/haml/table.csv at db930d1 (the run at 0241352: 5.088,
    # 5.268, 5.09 and 5.27 on hot/cold, HAML-K's rank correlation 0.60 there
    # and 0.00 on PostMark, PostMark's 2.893 and 2.275, the looped traces'
    # 2.687 / 1.670 / 1.131 and 2.751 / 2.076 / 1.147) and at 2f89065 (the
    # run at d706ccc: `single` and `double` 5.089 and 5.069 on hot/cold,
    # 5.324 and 4.947 on shifting)
    head = "What changed from 1 GiB (hot/cold there: WAF 5.088 `double`, 5.268 HAML-K):"

    # typed: open blocks from the geometry (7 frontiers x 64 dies; 153,600 -
    # 131,072 = 22,528 spare blocks; 1 GiB: 7 x 8 and 2 x 8 of 256); the
    # effective spare from the points' summary.json (ftl.spare.effective, not
    # a column of the CSV)
    bullets.append("""\
- **Open blocks are now a small share of spare, and cost no measurable
  spare.** HAML-K's 7 frontiers x 64 dies hold up to 448 open blocks of the
  drive's 22,528 spare (2.0 %), `double`'s 2 x 64 hold 128 (0.6 %); at 1 GiB it
  was 56 and 16 of 256. The effective spare over the timed part
  (`ftl.spare.effective`) is 14.47 % against 14.56 %.""")

    hc_h10, hc_d10 = d("hotcold", "haml", "waf", 10), d("hotcold", "double", "waf", 10)
    beat = "still does not beat" if hc_h10 >= hc_d10 else "beats"
    er = d("hotcold", "haml", "erases", 10) / d("hotcold", "double", "erases", 10)
    er_s = f"{pct(er, 1, sign=False)} % {'more' if er >= 1 else 'fewer'} erases"
    hotis1 = d("hotcold", "hotis", "waf")
    lo1, hi1 = sorted([d("hotcold", "double", "waf"), d("hotcold", "haml", "waf")])
    where = "between them" if lo1 <= hotis1 <= hi1 else ("below both" if hotis1 < lo1 else "above both")
    moves = {p: (d("hotcold", p, "waf", 10) - 1) * d("hotcold", p, "host_lba_writes", 10)
             / d("hotcold", p, "erases", 10) for p in ("double", "haml")}
    mv = sorted({fmt(m, 0) for m in moves.values()})
    mv_s = " and ".join(mv)
    valid = " and ".join(sorted({fmt(100 * m / 512, 0) for m in moves.values()}))
    same = "the same share" if len(mv) == 1 else "about the same share"
    # typed: the WAFs of the first 20 s and after, and of the second half, from
    # `scripts/haml_scale.py ... --split 20` and the points' timeseries (not in
    # the CSV); 80k writes = 20 s x 5,000 IOPS x 0.8
    bullets.append(f"""\
- **HAML-K {beat} `double`.** 10 M hot/cold writes: WAF {W('hotcold', 'haml', 10)}
  against {W('hotcold', 'double', 10)} ({pct(hc_h10, hc_d10)} %), {er_s}; 1 M writes: {W('hotcold', 'haml')} against {W('hotcold', 'double')}
  ({pct(d('hotcold', 'haml', 'waf'), d('hotcold', 'double', 'waf'))} %). The gap is made in the first 20 s (80k writes; from the
  timeseries): WAF 8.09 against 4.44 there, then 3.697 against 3.675
  (+0.6 %) over the rest of the 10 M writes, 3.736 against 3.725 (+0.3 %)
  over their second half: the two converge, they do not cross, within 10 M
  writes. HOTIS (two classes) lies {where} at 1 M writes, {W('hotcold', 'hotis')}, and
  the same way: 5.37 in the first 20 s, then 3.585 (`double` 3.559,
  HAML-K 3.592). GC's victims hold {same} of valid data under both
  ({mv_s} LBA moves per erase of 512 LBAs, {valid} %).""")

    pairs = [("hotcold", "double"), ("shifting", "double"), ("hotcold", "haml"), ("shifting", "haml")]
    w1 = [d(w, p, "waf") for w, p in pairs]
    close = max(abs(w1[0] - w1[1]), abs(w1[2] - w1[3]))
    same1 = ("give the same WAF to three digits" if close <= 0.0015
             else f"give WAFs within {fmt(close, 3)}")
    h10 = d("hotcold", "haml", "hottest_class_share", 10)
    # typed: the aged drive's uniform-random WAF 3.58 (docs/performance.md as
    # it was before dd93112; the page cites it there, but the current
    # performance.md no longer has it), the
    # 1 GiB WAFs and rank correlation (table.csv at db930d1, above)
    bullets.append(f"""\
- **Why: 10 M writes are too short a window for the workload to set the WAF
  of a 256 GiB drive.** Both policies stay near the aged drive's own WAF
  (uniform random writes on the same aged drive: 3.58, docs/performance.md).
  The victims are blocks the random drive-write of ageing filled, which mix
  hot and cold LBAs uniformly; placement only pays when blocks written in the
  timed part become victims, and 10 M writes are {dw10} % of a drive-write, which
  writes each hot LBA {hot10} times. At 1 M writes the workload does not show at
  all: `hotcold` and `shifting` {same1} under each
  policy ({W('hotcold', 'double')} / {W('shifting', 'double')}, {W('hotcold', 'haml')} / {W('shifting', 'haml')}). At 1 GiB the same request count
  rewrote the namespace more than once, and the hot/cold structure set the
  WAF (5.09 and 5.27). HAML's classes do follow the hot set at this scale:
  its hottest class takes {fmt(100 * h10, 0)} % of host writes (the workload sends 80 % to the
  hot window) and its rank correlation with death time is {fmt(d('hotcold', 'haml', 'rank_corr', 10), 2)} over 10 M
  writes (0.60 at 1 GiB); over 1 M writes it is {fmt(d('hotcold', 'haml', 'rank_corr'), 2)}, because {fmt(100 * d('hotcold', 'haml', 'cold_in_hot'), 0)} % of the
  hottest class's LBAs are not rewritten inside so short a window.""")

    hm, dm = d("hotcold", "haml", "write_mean_us", 10), d("hotcold", "double", "write_mean_us", 10)
    hr, dr = d("hotcold", "haml", "read_mean_us", 10), d("hotcold", "double", "read_mean_us", 10)
    hp, dp = d("hotcold", "haml", "write_p999_us", 10), d("hotcold", "double", "write_p999_us", 10)
    means = "higher" if hm > dm and hr > dr else "different"
    tail = "lower" if hp < dp else "higher"
    # typed: the free pool, write stalls and per-second tails of the
    # transient, and GC's bursts, from the points' timeseries and summary.json
    # (ftl.write_stalls; not columns of the CSV); 384 = 6 classes x 64 dies;
    # the earlier run's WAFs (branch `speed`) from that run's notes
    bullets.append(f"""\
- **HAML-K has a start-up transient at this scale.** Its monitor starts
  untrained (ageing did not run the workload) and classifies first at 8 s;
  at 9-10 s the free pool falls to 0 (its minimum under `double`: 5-6), writes
  stall (`ftl.write_stalls`: 791k in the first 1 M writes and none after;
  `double` 65k in 1 M writes, 680k in 10 M, spread over its GC bursts)
  and the write p99.9 of those seconds is 0.36-0.51 s. This is consistent
  with the new classes opening their frontiers on all 64 dies at once (up to
  384 blocks while the pool is held at 128, and dies that run out collect
  their own best victim rather than the drive's). The first 20 s, with this
  transient, hold most of the 1 M-write gap (above) and make HAML-K's means
  on `hotcold` {means}: write mean {fmt(hm, 1)} against {fmt(dm, 1)} us, read mean {fmt(hr, 0)}
  against {fmt(dr, 0)} us over 10 M writes. Its
  write p99.9 is {tail} ({fmt(hp / 1000, 1)} ms against {fmt(dp / 1000, 0)} ms): `double`'s GC runs in bursts
  (about 10 s in every 40 s, with 50 ms write tails), HAML-K's is spread
  more evenly after the transient. In the earlier run (branch `speed`: 1 M
  requests functional, then 800k writes timed, so the monitor had trained on
  the workload) HAML-K was above `double` too: WAF 3.608 against 3.546.
  One run per point: differences in the tails are not established by it.""")

    ph, pd_ = d("postmark", "haml", "waf", 10), d("postmark", "double", "waf", 10)
    pm_rate = fmt(d("postmark", "haml", "host_lba_writes", 10) * 4096 / 2**20 / 196, 0)  # typed: 196 s replay
    pm_lat = [d("postmark", p, c, 10) for p in ("double", "haml") for c in ("read_mean_us", "write_mean_us")]
    pm_mean = fmt(round(sum(pm_lat) / len(pm_lat) / 1e6, -1), 0)
    still = "but HAML-K is still above" if ph > pd_ else "and HAML-K is now below"
    # typed: the 1 GiB WAFs and rank correlation (table.csv at db930d1,
    # above); the 282-285 s the replay took (simulated time, not in
    # the CSV); T = 98 s by the 1/25 rule from the trace's length
    bullets.append(f"""\
- **PostMark** ({pm} M LBA writes): WAF {W('postmark', 'haml', 10)} HAML-K against {W('postmark', 'double', 10)}
  `double` ({pct(ph, pd_)} %; at 1 GiB 2.893 against 2.275, +27 %): a much smaller
  gap, {still}, and its classes do not follow death times
  (rank correlation {fmt(d('postmark', 'haml', 'rank_corr', 10), 2)}, at 1 GiB 0.00). At
  12.5x speed this drive's GC cannot keep up with PostMark's {pm_rate} MiB/s of
  writes: GC was active for the whole run, the free pool reached 0 and the
  196 s of trace took 282-285 s. Its latencies (means of about {pm_mean} s) are the
  host's queue, not the drive's, and say nothing about the policies; a
  replay at the recorded speed needs T = 98 s by the 1/25 rule, so drives
  aged with that T (not run).""")

    T3 = [("msr", "MSR"), ("tpcc", "TPC-C"), ("dtrs", "DTRS")]

    def lowest(w, p, n=1):
        return d(w, p, "waf", n) <= min(d(w, q, "waf", n) for q in POLICIES)

    lows = [(w, t) for w, t in T3 if lowest(w, "asa")]
    rest = [(w, t) for w, t in T3 if not lowest(w, "asa")]
    asa_parts = [f"{t} {W(w, 'asa')} ({pct(d(w, 'asa', 'waf'), d(w, 'double', 'waf'), 0)} %"
                 + ("\n  against `double`)" if i == 0 else ")") for i, (w, t) in enumerate(lows)]
    on = "all three" if len(lows) == 3 else f"{WORDS[len(lows)]} of the three"
    asa_s = f"ASA-FTL is lowest on {on}: " + ", ".join(asa_parts)
    if rest:
        asa_s += "; on " + ", ".join(f"{t} {W(w, 'asa')} ({pct(d(w, 'asa', 'waf'), d(w, 'double', 'waf'), 0)} %)"
                                     for w, t in rest)
    above = {p: sum(d(w, p, "waf") > d(w, "double", "waf") for w, _ in T3) for p in ("hotis", "haml", "stream")}
    ab_hh = ("are above `double` on all\n  three" if above["hotis"] == above["haml"] == 3
             else f"are above `double` on {WORDS[above['hotis']]} and {WORDS[above['haml']]} of\n  the three")
    ab_or = ("is above\n  `double` on all three as well" if above["stream"] == 3
             else f"is above\n  `double` on {WORDS[above['stream']]} of the three")

    def wafs(p, n=1, ws=T3):
        return ", ".join(W(w, p, n) for w, _ in ws)

    hv = [W(w, "hotis") for w, _ in T3]
    hk = ", ".join(f"{pct(d(w, 'haml', 'waf'), d(w, 'double', 'waf'), 0)} %" for w, _ in T3)
    top = sorted({fmt(100 * d(w, "stream", "hottest_class_share"), 0) for w in ("msr", "tpcc")})
    top_s = " and ".join(f"{s} %" for s in top) if len(top) > 1 else f"{top[0]} %"
    rc_loop = [d(w, p, "rank_corr") for w, _ in T3 for p in MONITORED]
    dtrs_tail = span([d("dtrs", p, "write_p999_us") for p in POLICIES], 2, 1e6)
    # typed: the WAFs of the first 20 s and after them (`--split 20`, not in
    # the CSV) and the percentage from them; the 1 GiB WAFs (table.csv at
    # db930d1, above); DTRS's speed (1/0.0013) and write stalls
    # (summary.json ftl.write_stalls, not in the CSV)
    bullets.append(f"""\
- **Looped real traces (1 M LBA writes each): here placement pays, and
  separating GC's moves from host writes takes most of it.** With one
  frontier (`single`), GC copies the aged drive's cold data into the blocks
  that take the trace's rewrites, and the WAF stays near the aged drive's own:
  {W('msr', 'single')} (MSR), {W('tpcc', 'single')} (TPC-C), {W('dtrs', 'single')} (DTRS). `double` keeps host writes apart,
  so host blocks hold only the rewritten set and die nearly empty: {W('msr', 'double')},
  {W('tpcc', 'double')}, {W('dtrs', 'double')}. {asa_s}. HOTIS ({hv[0]},
  {hv[1]}, {hv[2]}) and HAML-K ({wafs('haml')}) {ab_hh} (HAML-K {hk}).
  The oracle, which places each write by its real death time, {ab_or} ({wafs('stream')}; after the first 20 s
  1.728, 1.945, 2.474 against `double`'s 1.623, 1.866, 2.462): it puts {top_s}
  of MSR's and TPC-C's writes in its hottest class, so it is `double` with
  more frontiers. ASA-FTL's lead on MSR does not come from ordering by death
  time either (its rank correlation is {fmt(d('msr', 'asa', 'rank_corr'), 2)}); one run per point, and its
  cause is not established here.
  The monitored policies' gap is made in the first 20 s, their start-up
  transient (the monitor starts untrained and new class frontiers open on all
  64 dies): over the first 20 s of MSR / TPC-C, WAF 3.74 / 6.98 for HAML-K,
  4.02 / 3.35 ASA-FTL, 3.06 / 3.35 HOTIS, against `double`'s 2.33 / 2.38. After
  them, every monitored policy is at or below `double` except HOTIS on MSR:
  MSR 1.222 ASA-FTL, 1.578 HAML-K, 1.649 HOTIS against 1.623; TPC-C 1.473
  HAML-K (-21 %), 1.698 ASA-FTL, 1.841 HOTIS against 1.866; DTRS 2.431-2.448
  against 2.462 (its first 20 s are mostly reads, so their WAF says little).
  At 1 GiB, where the first half of the trace ran functionally and the
  monitor started trained, HAML-K was below `double` on the three (2.687 /
  1.670 / 1.131 against 2.751 / 2.076 / 1.147). So HAML-K's 1 GiB lead over
  `double` on these traces reappears once the transient is over; a 200 s
  replay is too short to pay it back. The classes still do not follow death
  times (rank correlation {span(rc_loop, 2)}, as at 1 GiB), so the gain after the
  transient is not from ordering writes by death time.
  DTRS at about 770x speed comes in bursts that empty the free pool under
  every policy (0.09-0.54 M write stalls, write p99.9 {dtrs_tail} s): its
  latencies are the bursts', not the policies'.""")

    m = "msr-10m"
    md, mh, ma = d(m, "double", "waf", 10), d(m, "haml", "waf", 10), d(m, "asa", "waf", 10)
    cut = [(1 - mh / md) * 100, (1 - ma / md) * 100]
    if all(c > 0 for c in cut):
        beat10 = "beat `double`\n  " + ("by a fifth" if all(15 <= c < 25 for c in cut) else f"by {span(cut, 0)} %")
    else:
        beat10 = f"against `double`:\n  {pct(mh, md, 0)} % and {pct(ma, md, 0)} %"
    fewer = span([(1 - d(m, p, "erases", 10) / d(m, "double", "erases", 10)) * 100 for p in ("haml", "asa")], 0)
    one = d(m, "stream", "hottest_class_share", 10)
    one_s = ("puts all writes in one class" if fmt(one, 2) == "1.00"
             else f"puts {fmt(100 * one, 0)} % of the writes in its hottest class")
    rp = [fmt(d(m, p, "read_p99_us", 10), 0) for p in ("asa", "haml", "double")]
    # typed: run notes (date, passes, replay length, T); the WAFs of the first
    # 20 s and after (`--split 20`, not in the CSV) and the -3 % from them; the
    # rewrites per distinct LBA (the excerpt's distinct LBAs from the trace)
    bullets.append(f"""\
- **The MSR excerpt at 10 M LBA writes: HAML-K and ASA-FTL {beat10}** (run 2026-11-28; 700 passes over about 800 s, T = 32 s, on
  drives aged with that T). WAF: `single` {W(m, 'single', 10)}, `double` {W(m, 'double', 10)}, HOTIS
  {W(m, 'hotis', 10)}, the oracle {W(m, 'stream', 10)}, HAML-K **{W(m, 'haml', 10)} ({pct(mh, md, 0)} %)**, ASA-FTL **{W(m, 'asa', 10)}
  ({pct(ma, md, 0)} %)**, with {fewer} % fewer erases. Over the first 20 s every policy but
  `single` has the same WAF (1.911: with T = 32 s no monitor has classified
  yet, so each places as `double` does), and the gap opens after: 1.296
  (HAML-K) and 1.237 (ASA-FTL) against 1.596. At 1 M LBA writes (T = 8 s)
  the start-up transient hid this (HAML-K {pct(d('msr', 'haml', 'waf'), d('msr', 'double', 'waf'), 0)} % over the whole run, -3 %
  after 20 s); ten times the writes pay it back, as that bullet expected.
  The gain is not from ordering writes by death time: rank correlations are
  {fmt(d(m, 'haml', 'rank_corr', 10), 3)} (HAML-K) and {fmt(d(m, 'asa', 'rank_corr', 10), 3)} (ASA-FTL), and the oracle, which orders them
  perfectly, {one_s} and so is `double` ({W(m, 'stream', 10)}). What
  the two monitored policies do that the oracle does not is split the
  rewritten set into several classes (hottest class {fmt(100 * d(m, 'haml', 'hottest_class_share', 10), 0)} % and {fmt(100 * d(m, 'asa', 'hottest_class_share', 10), 0)} % of host
  writes), so each class's blocks hold LBAs rewritten at similar rates and
  die emptier; the excerpt's 23 MiB of distinct LBAs, each rewritten about
  1,700 times here, is where rate, not death time, separates them. This is
  the mechanism the figures are consistent with, not a measured breakdown
  of the victims. One run per point. Read p99 is also lower ({rp[0]} and {rp[1]} us
  against {rp[2]}), as fewer GC moves hold the dies.""")

    t, s = "tpcc-10m", "dtrs-10m"
    td, sd = d(t, "double", "waf", 10), d(s, "double", "waf", 10)
    T10 = [("msr-10m", "MSR"), (t, "TPC-C"), (s, "DTRS")]
    order = all(sorted(POLICIES, key=lambda p: d(w, p, "waf", 10))[:2] == ["asa", "haml"] for w, _ in T10)
    order_s = ("So on all three traces ASA-FTL is lowest and\n  HAML-K second" if order
               else "So ASA-FTL and HAML-K are not the two lowest on\n  every trace")
    def with_double(w, p):
        return abs(d(w, p, "waf", 10) / d(w, "double", "waf", 10) - 1) < 0.01

    def vs_double(w, p):
        return "" if with_double(w, p) else f" ({pct(d(w, p, 'waf', 10), d(w, 'double', 'waf', 10))} %)"

    t_with = (" with `double`" if with_double(t, "hotis") and with_double(t, "stream")
              else vs_double(t, "stream").replace(")", " against `double`)"))
    t_hotis = "" if t_with == " with `double`" else vs_double(t, "hotis")
    s_with = f"with `double` ({W(s, 'double', 10)})" if with_double(s, "stream") else \
        f"against `double`'s {W(s, 'double', 10)}{vs_double(s, 'stream')}"
    oracle_none = all(d(w, "stream", "waf", 10) >= 0.99 * d(w, "double", "waf", 10) for w, _ in T10)
    oracle_s = "gains nothing over\n  `double`" if oracle_none else "gains over\n  `double` on some"
    rc10 = [d(w, p, "rank_corr", 10) for w, _ in T10 for p in ("asa", "haml")]
    s_wp = span([d(s, p, "write_p999_us", 10) for p in POLICIES], 1, 1e6)
    s_rm = span([d(s, p, "read_mean_us", 10) for p in POLICIES], 0, 1e3)
    s_rp = span([d(s, p, "read_p99_us", 10) for p in POLICIES], 1, 1e3)
    # typed: run notes (date, passes, replay length, T); rewrites per distinct
    # LBA (distinct LBAs from the traces)
    bullets.append(f"""\
- **TPC-C and DTRS at about 10 M LBA writes: the same order** (run
  2026-11-28, 1,250 and 54 passes over about 800 s, T = 32 s). TPC-C:
  ASA-FTL {W(t, 'asa', 10)} ({pct(d(t, 'asa', 'waf', 10), td)} % against `double`'s {W(t, 'double', 10)}) and HAML-K {W(t, 'haml', 10)}
  ({pct(d(t, 'haml', 'waf', 10), td)} %), HOTIS {W(t, 'hotis', 10)}{t_hotis} and the oracle {W(t, 'stream', 10)}{t_with}, `single` {W(t, 'single', 10)}.
  DTRS: ASA-FTL {W(s, 'asa', 10)} ({pct(d(s, 'asa', 'waf', 10), sd)} %), HAML-K {W(s, 'haml', 10)} ({pct(d(s, 'haml', 'waf', 10), sd)} %), HOTIS {W(s, 'hotis', 10)} ({pct(d(s, 'hotis', 'waf', 10), sd)} %),
  the oracle {W(s, 'stream', 10)} {s_with}, and `single` {W(s, 'single', 10)} close to them
  (DTRS rewrites each LBA about 50 times here, not 1,700 as MSR does, so
  one frontier loses little). {order_s}, both with classes that do not follow death times (rank
  correlation {span(rc10, 2)}), and the oracle that does {oracle_s}: as on MSR, what pays is splitting the rewritten set into
  several classes. The DTRS replay at this speed still comes in bursts
  that stall writes under every policy (write p99.9 {s_wp} s, read means
  of {s_rm} ms against p99s of {s_rp} ms): its latencies are the bursts',
  not the policies'.""")

    def rank(w, n=1):
        return sorted(POLICIES, key=lambda p: d(w, p, "waf", n))

    moved = [p for p, q in zip(rank("hotcold"), rank("shifting")) if p != q]
    but = (" but for " + and_list(NAME[p] for p in moved)) if moved else ""
    near = math.ceil(max(abs(d("shifting", p, "waf") - d("hotcold", p, "waf")) for p in POLICIES) * 10) / 10
    # typed: the WAFs after the first 20 s (`--split 20`, not in the CSV)
    bullets.append(f"""\
- **`shifting` at 1 M writes, every policy**: `single` {W('shifting', 'single')}, `double` {W('shifting', 'double')},
  HOTIS {W('shifting', 'hotis')}, ASA-FTL {W('shifting', 'asa')}, HAML-K {W('shifting', 'haml')}, the oracle {W('shifting', 'stream')}: the order of
  `hotcold`{but}, and within {fmt(near, 1)} of each policy's
  `hotcold` figure (the window moves on before any LBA in it is rewritten:
  1 % of its LBAs per position). After the first 20 s HOTIS (3.571) and ASA-FTL (3.586) are at
  `single`'s 3.594 and the oracle is 2 % below it (3.531): the transient
  again, and hardly any gain from placement.""")

    hc1 = rank("hotcold")
    listed = ", ".join(f"{NAME[p]} {W('hotcold', p)}" for p in hc1)
    listed = listed.replace(", ", ",\n  ", 2).replace(",\n  ", ", ", 1)
    single_low = hc1[0] == "single"
    low_s = ("the policies\n  with more frontiers are higher, and separating anything does not yet pay\n"
             "  (`single` is lowest)" if single_low
             else f"{NAME[hc1[0]]} is lowest")
    so10, do10 = d("hotcold", "stream", "waf", 10), d("hotcold", "double", "waf", 10)
    ab10 = "above" if so10 > do10 else "below"
    window = ("within this window no\n  placement of host writes beats `double` on this aged drive" if so10 > do10
              else "placement by death time\n  beats `double` here")
    bullets.append(f"""\
- **Every policy at 1 M hot/cold writes**: {listed}: {low_s}. Even the oracle, which places by real death time, is
  {ab10} `double` at 10 M writes ({W('hotcold', 'stream', 10)} against {W('hotcold', 'double', 10)}): {window}.""")

    hs10 = d("hotcold", "single", "waf", 10)
    worst = hs10 >= max(d("hotcold", p, "waf", 10) for p in POLICIES)
    worst_s = ("one frontier is the worst, and placement pays\n  against it" if worst
               else "one frontier is not the worst")
    rev = (f"(where `single` was lowest,\n  {W('hotcold', 'single')}) is reversed" if worst and single_low
           else f"(`single`\n  {W('hotcold', 'single')}) is not reversed")
    er10 = d("hotcold", "single", "erases", 10)
    half = er10 / 153600  # typed: 153,600 blocks, 8 x 8 dies x 2400 (configs/haml_table3.yaml)
    half_s = "about half" if 0.4 <= half <= 0.6 else f"{fmt(100 * half, 0)} %"
    all_beat = all(d("hotcold", p, "waf", 10) < hs10 for p in POLICIES if p != "single")
    none_d = not any(d("hotcold", p, "waf", 10) < do10 for p in POLICIES if p not in ("single", "double"))
    verdict = ("So at 10 M writes every policy with two or more frontiers beats one\n  frontier on `hotcold`"
               if all_beat else "So at 10 M writes not every policy with two or more frontiers beats one\n"
               "  frontier on `hotcold`")
    verdict += (", but none of them (HAML-K, the oracle) beats\n  `double`" if none_d
                else ", and some of them beat\n  `double`")
    gap = (hs10 / do10 - 1) * 100
    # typed: 0.4 % at 1 GiB, below
    wider = "wider after 10 M writes, not narrower" if gap > 0.4 else "not wider after 10 M writes"
    # typed: the 500 s windows and the second half (the points' timeseries,
    # not in the CSV); the 1 GiB WAFs (table.csv at 2f89065, above)
    bullets.append(f"""\
- **At 10 M hot/cold writes {worst_s}.** `single` {W('hotcold', 'single', 10)}, against `double` {W('hotcold', 'double', 10)} ({pct(do10, hs10)} %), the oracle
  {W('hotcold', 'stream', 10)} and HAML-K {W('hotcold', 'haml', 10)}: the order of 1 M writes {rev}. `single`'s WAF is not steady: over windows of 500 s
  (2 M writes each) it climbs 3.60, 3.64, 3.75, 3.87, 4.05, where `double`
  goes from about 3.64 in the first half to 3.725 in the second (HAML-K
  3.736); over the second half `single` is 3.921, 5 % above both. With one
  frontier, GC copies the aged drive's still-valid data into the same
  blocks as the host's hot writes, and once blocks written in the timed
  part come round as victims ({fmt(er10, 0)} erases in 10 M writes: {half_s} of
  the drive's 153,600 blocks) that copied data is still valid in them and
  is copied again; `double` keeps it apart, so its host blocks die nearly
  empty, as with the looped traces below. This is the mechanism the
  windows are consistent with, not a measured breakdown of the victims.
  {verdict}; 10 M writes are still a transient for this drive (`single`'s
  WAF still rises at the end) and the points are one run each. At 1 GiB
  (the write-amplification table above, as of 2026-11-25 on main)
  `single` was 0.4 % above `double` on `hotcold` (5.089 against 5.069): the
  gap at paper scale is {wider}.""")

    ss, sd10 = d("shifting", "single", "waf", 10), d("shifting", "double", "waf", 10)
    costs = "costs nothing" if abs(ss / sd10 - 1) < 0.005 else "costs"
    same_hc = all(abs(d("shifting", p, "waf") - d("hotcold", p, "waf")) <= 0.001 for p in ("single", "double"))
    same_hc_s = ", the same as on `hotcold`" if same_hc else ""
    others = ["hotis", "asa", "haml", "stream"]
    sh10 = rank("shifting", 10)
    so, sh = d("shifting", "stream", "waf", 10), d("shifting", "haml", "waf", 10)
    low_or = "is the lowest" if sh10[0] == "stream" else "is not the lowest"
    high_h = "is the highest" if sh10[-1] == "haml" else "is not the highest"
    rc_sh = [d("shifting", p, "rank_corr", 10) for p in MONITORED]
    # typed: the 500 s windows (timeseries), the WAFs after the first 20 s and
    # of the first 20 s (`--split 20`) and the 1.4 % between them, none in the
    # CSV; the 1 GiB WAFs (table.csv at 2f89065, above)
    bullets.append(f"""\
- **`shifting` at 10 M writes** is close to uniform writes over the written
  half (its window moves on after 1 % of its LBAs are written, above), and
  one frontier {costs} there: `single` {W('shifting', 'single', 10)} and `double` {W('shifting', 'double', 10)}
  ({pct(sd10, ss)} %; 1 M writes: {W('shifting', 'single')} and {W('shifting', 'double')}{same_hc_s}), their
  500 s windows 3.60, 3.60, 3.63, 3.65, 3.69 and 3.60, 3.63, 3.63, 3.66,
  3.69: the same rise, the aged drive's WAF creeping up, with no gap opening
  between them. With the window moving on before its LBAs are rewritten,
  the blocks written in the timed part hold data about as long-lived as
  the aged drive's, so keeping GC's copies apart has nothing to separate. At
  1 GiB, where the window is rewritten 2.8 times before it moves, `single`
  was 7.6 % above `double` (5.324 against 4.947). The other {WORDS[len(others)]} (run
  2026-11-28, below) keep that picture: the oracle {W('shifting', 'stream', 10)} {low_or}
  ({pct(so, ss)} % against `single`), HOTIS {W('shifting', 'hotis', 10)} and ASA-FTL {W('shifting', 'asa', 10)} lie with
  `double`, and HAML-K {high_h}, {W('shifting', 'haml', 10)} ({pct(sh, ss)} % against `single`).
  After the first 20 s they are 3.600 (oracle), 3.634 (ASA-FTL), 3.639
  (HOTIS) and 3.651 (HAML-K): HAML-K's start-up transient (7.64 over the
  first 20 s) is again most of its gap, and what is left is 1.4 % between
  the best placement by real death time and the worst by a monitor, on a
  workload where no LBA is rewritten before its window moves. The monitored
  policies' classes do not follow death times here (rank correlation
  {span(rc_sh, 3)}), as the workload has none to follow.""")

    hh, ha = d("hotcold", "hotis", "waf", 10), d("hotcold", "asa", "waf", 10)
    hh10 = d("hotcold", "haml", "waf", 10)
    btw = "between" if all(do10 <= x <= hh10 for x in (hh, ha)) else "beside"
    rch = [d("hotcold", p, "rank_corr", 10) for p in ("hotis", "asa", "haml")]
    less = "less well" if max(rch[:2]) < rch[2] else "no better"
    lower = "yet\n  their WAF is lower" if max(hh, ha) < hh10 else "and\n  their WAF is not lower"
    tails = [d("hotcold", p, "write_p999_us", 10) for p in ("hotis", "asa", "double")]
    # typed: the WAFs after the first 20 s (`--split 20`, not in the CSV)
    bullets.append(f"""\
- **HOTIS and ASA-FTL at 10 M hot/cold writes** (run 2026-11-28): {W('hotcold', 'hotis', 10)}
  and {W('hotcold', 'asa', 10)}, {btw} `double` ({W('hotcold', 'double', 10)}) and HAML-K ({W('hotcold', 'haml', 10)}), with the oracle
  ({W('hotcold', 'stream', 10)}); after the first 20 s HOTIS is 3.671 against `double`'s 3.676
  (-0.1 %) and ASA-FTL 3.675: within 0.2 % of each other, and none beats
  `double` by more than a tenth of a percent over 10 M writes. Their classes
  follow death times {less} than HAML-K's (rank correlation {fmt(rch[0], 3)} and
  {fmt(rch[1], 3)} against {fmt(rch[2], 3)}; HOTIS's hottest class takes {fmt(100 * d('hotcold', 'hotis', 'hottest_class_share', 10), 0)} % of host writes), {lower}: within 10 M writes a better ordering by death time
  does not show in the WAF (the oracle's perfect ordering gives {W('hotcold', 'stream', 10)}). Their write tails are short
  (p99.9 {fmt(tails[0], 0)} us and {fmt(tails[1], 0)} us against `double`'s {fmt(tails[2] / 1000, 0)} ms), as HAML-K's are: with
  more frontiers, GC is spread more evenly than `double`'s bursts. One run
  per point.""")

    syn10 = [d(w, p, "cpu_user_s", 10) + d(w, p, "cpu_sys_s", 10) for w in ("hotcold", "shifting") for p in POLICIES]
    syn1 = [d.cpu(w, p) for w in ("hotcold", "shifting") for p in POLICIES]
    AGEING_MAX = 103  # typed: ageing CPU, 89-103 s, from the runs' logs (not in the CSV)
    goal = ("under the 10 minutes of CPU" if max(syn10) + AGEING_MAX < 600
            else "over the 10 minutes of CPU")

    def uc(w, p):
        return f"{fmt(d(w, p, 'cpu_user_s', 10), 1)} + {fmt(d(w, p, 'cpu_sys_s', 10), 1)} s"

    # typed: wall times and loads (614 s at 16, 474 s, 1,479 s at 22) and the
    # ageing figures from the runs' logs; the monitor's 3.8 s of controller CPU
    # and 312 classifications from the HAML-K point's summary.json
    # (placement.monitor_cpu_s; not columns of the CSV)
    bullets.append(f"""\
- **Cost**: a 10 M-write point is {span(syn10, 0)} s of CPU (user + sys; `single`
  on `hotcold` {uc('hotcold', 'single')}, 614 s of wall time at a load of 16, on
  `shifting` {uc('shifting', 'single')}, 474 s; `double` on `shifting` {uc('shifting', 'double')},
  1,479 s at a load of 22), a 1 M
  one {span(syn1, 0)} s, ageing a drive 89-103 s (`single`'s 95.4 + 3.0 s, 1,165 s
  of wall time): a point and its ageing are {goal} the performance goal allows ([performance.md](../performance.md)). HAML's monitor and software K-Means took 3.8 s of controller CPU over
  10 M writes (312 classifications of 2,560 slices).""")

    # typed: the 10 M rows run before the oracle's flat arrays, from the run
    # notes below (`single`, `double`, HAML-K and the oracle on `hotcold`)
    early = span([d("hotcold", p, "peak_rss_mib", 10) for p in ("single", "double", "haml", "stream")], 0)
    # typed: all memory figures but the CSV's peak RSS: /usr/bin/time of the
    # ageing and point processes (KiB; the runs' logs, not in the repository),
    # the stores' sizes from the model's layout (docs/performance.md,
    # "Memory"), 1,370,668 KiB from docs/performance.md as it was before
    # dd93112, and the pre-pass measured from /proc once a second (not in the
    # repository)
    bullets.append(f"""\
- **Memory at this scale: under 1.5 GB again.** Ageing a drive (134 M
  functional writes): peak RSS 1,382,508 KiB (1.42 GB), 36.0 B per 8 KiB
  physical page (39.3 M pages), 18.0 B per 4 KiB of flash (`double`'s
  drive; `single`'s, before the change below, 1,399,580 KiB), as before
  (docs/performance.md: 1,370,668 KiB from an older build). A 10 M-write
  point that loads it: 1,382,736 KiB (1.42 GB, 36.0 B per physical page;
  `single` on `shifting`). The 10 M points run before were over the goal:
  1,588,828 KiB (1.63 GB, 41.4 B per page; `single` on `hotcold`, old
  build; the {early} MiB of every earlier 10 M row above). **What dominates**
  is the three stores a saved drive holds, 1,359 of the 1,416 MB: the NAND store 805 MB
  (20.5 B per physical page: a 4 B data token and a 4 B OOB LPN per 4 KiB
  slot, a 4 B sequence number per page), the controller DRAM's tables
  285 MB (7.3 B; the L2P at 4 B per LBA is 268 MB of it) and the host's
  scoreboard 268 MB (6.8 B; 4 B per LBA); libraries, SystemC and the run's
  buffers are the other 57 MB. **The 10 M points' extra 211 MB** was the
  oracle's pre-pass (`host.streams=oracle`, set on every point so that the
  classes can be compared with death times): it kept the next write of each
  LBA in a `std::unordered_map`, one heap node per distinct LBA, and after
  the pre-pass freed them their pages stayed in the process. It now keeps
  them in two flat arrays (platform/host/oracle.cpp), which go back to the
  system when it ends. Measured on the same 12.5 M hot/cold requests on the
  Table III drive (RSS from /proc once a second): once the SoC is set up,
  1,215,344 KiB with the map and 1,008,072 KiB with the arrays (-212 MB),
  and the pre-pass takes 3.6 s of CPU instead of 6.2 s. Runs without the
  oracle never had this cost. The per-page state was not cut: the cuts
  docs/performance.md's "Memory" lists (the per-page sequence number, 157 MB
  here; one of the data token and the OOB LPN, 315 MB) change what the NAND
  model keeps for recovery and the integrity checks, which is not a cheap
  change.""")

    parts.append(head + "\n\n" + "\n".join(bullets))

    # typed: the command lines of the runs
    parts.append("""\
Commands (`DIR` outside the repository: each saved drive is 1.3 GB; the
script ages a policy's drive only when one of its points has not run, skips
points that have run with the same command line, and `--clean` deletes each
drive after its policy's points):

```sh
scripts/haml_scale.py build --state DIR --writes 1000000 --policies double,haml --workloads hotcold,shifting
scripts/haml_scale.py build --state DIR --writes 10000000 --policies double,haml --workloads hotcold
scripts/haml_scale.py build --state DIR --policies double,haml --workloads postmark
scripts/haml_scale.py build --state DIR --writes 1000000 --policies hotis,asa,single,stream --workloads hotcold
scripts/haml_scale.py build --state DIR --writes 10000000 --policies stream --workloads hotcold
scripts/haml_scale.py build --state DIR --writes 1000000 --policies single,double,haml,hotis,asa,stream --workloads shifting,msr,dtrs,tpcc
scripts/haml_scale.py build --state DIR --writes 10000000 --policies single --workloads hotcold,shifting --clean
scripts/haml_scale.py build --state DIR --writes 10000000 --policies double --workloads shifting --clean
# the table above (from out/haml_scale/), and the WAF before and after the first 20 s:
scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --table-only --split 20
```""")

    # typed: the run notes (dates, branches, builds, loads) and the ageing
    # CPU and wall times from the runs' logs; the CPU of the 1 M-write points
    # those notes cover is the CSV's
    run1 = [d.cpu("shifting", p) for p in ("single", "hotis", "asa", "stream")]
    run1 += [d.cpu(w, p) for w in ("msr", "dtrs", "tpcc") for p in POLICIES]
    parts.append(f"""\
The rows for `shifting` at 1 M writes (but `double` and HAML-K) and for the
MSR excerpt, DTRS and TPC-C were run on 2026-11-25 on branch `hamlscale`
(ssdvp d706ccc, one point at a time; ageing a drive took 92-103 s of CPU and
7-15 min of wall time at a load of 15-21, a 1 M-write point {span(run1, 0)} s of
CPU).""")

    parts.append("""\
The `single` rows at 10 M writes and `double` on `shifting` at 10 M were
run on 2026-11-25 on branch `hamlscale` (ssdvp 52eb4b1 for `single` on
`hotcold`; the others with the oracle's flat arrays above, which change no
figure but the memory and CPU; one point at a time at a load of 15-23).""")

    parts.append("""\
HOTIS and ASA-FTL at 10 M hot/cold writes, and `shifting` at 10 M writes
for HOTIS, ASA-FTL, HAML-K and the oracle, were run on 2026-11-28 on main
(ssdvp 93043f5, one point at a time on a 2-core machine with one other core
busy; each policy's drive aged first, 4 ageings):

```sh
scripts/haml_scale.py build --state DIR --writes 10000000 --policies hotis,asa --workloads hotcold,shifting --clean
scripts/haml_scale.py build --state DIR --writes 10000000 --policies haml,stream --workloads shifting --clean
```""")

    # typed: the rerun of `double` on `hotcold` at 10 M writes, from its
    # output (not a row of the CSV: the row is the first run); compared with
    # the row here
    rerun = {"waf": (3.680, 3), "erases": (71937, 0), "read_mean_us": (69.8, 1), "read_p99_us": (192.0, 1),
             "write_mean_us": (48.1, 1), "write_p999_us": (20251, 0)}
    RERUN_CPU, RERUN_RSS = (130.4, 3.2), 1351
    differ = [k for k, (v, nd) in rerun.items() if fmt(v, nd) != fmt(d("hotcold", "double", k, 10), nd)]
    match = ("the row\nabove in every figure" if not differ
             else "the row\nabove but for " + ", ".join(differ))
    late = [("hotcold", "hotis"), ("hotcold", "asa"), ("shifting", "hotis"), ("shifting", "asa"),
            ("shifting", "haml"), ("shifting", "stream")]
    late_cpu = span([d(w, p, "cpu_user_s", 10) for w, p in late] + [RERUN_CPU[0]], 0)
    late_rss = span([d(w, p, "peak_rss_mib", 10) for w, p in late] + [RERUN_RSS], 0)
    rr = {k: fmt(v, nd) for k, (v, nd) in rerun.items()}
    parts.append(f"""\
To check that these rows can stand beside the ones of 2026-11-25, the same
build reran `double` on `hotcold` at 10 M writes from a freshly aged drive
(`--policies double --workloads hotcold`): WAF {rr['waf']}, {rr['erases']} erases, read mean
{rr['read_mean_us']} us, read p99 {rr['read_p99_us']} us, write mean {rr['write_mean_us']} us, write p99.9 {rr['write_p999_us']} us, {match}; only its CPU ({RERUN_CPU[0]} + {RERUN_CPU[1]} s) and peak RSS ({fmt(RERUN_RSS, 0)} MiB,
after the oracle's flat arrays) differ. A point costs {late_cpu} s of user CPU and
{late_rss} MiB of peak RSS.""")

    ten = ["msr-10m", "tpcc-10m", "dtrs-10m"]

    def user(w):
        return span([d(w, p, "cpu_user_s", 10) for p in POLICIES], 0)

    rss10 = span([d(w, p, "peak_rss_mib", 10) for w in ten for p in POLICIES], 0)
    # typed: passes, speeds and replay lengths (scripts/haml_scale.py's
    # workload table), 200 MiB/s and 50 MiB/s from them, and the ageing CPU
    # with T = 32 s from the runs' logs (ageing is not a row of the CSV)
    parts.append(f"""\
The MSR
excerpt, DTRS and TPC-C at about 10 M LBA writes were run on 2026-11-28
(same build, one point at a time; rows `msr-10m`, `tpcc-10m`, `dtrs-10m`). At the
200 s the synthetic drives' T = 8 s asks for, 10 M LBA writes are 200 MiB/s,
more than this drive's GC sustains (PostMark's {pm_rate} MiB/s emptied the free
pool), so the script replays them over about 800 s (about 50 MiB/s; MSR 700
passes at 0.0047 of its recorded time, DTRS 54 passes at 0.000494, TPC-C
1,250 passes at 4.7x) with T = 32 s, on drives aged with that T
(`DIR/<policy>-T32s`, one more ageing per policy):

```sh
scripts/haml_scale.py build --state DIR --policies single,double,hotis,asa,haml,stream --workloads msr-10m,dtrs-10m,tpcc-10m --clean
```

Its cost as measured: an ageing with T = 32 s 58-84 s of CPU per policy
(each drive deleted after one invocation's points, so MSR's and then
TPC-C's and DTRS's invocations aged six each), a point {user('msr-10m')} s (MSR),
{user('tpcc-10m')} s (TPC-C) and {user('dtrs-10m')} s (DTRS) of user CPU, {rss10} MiB of peak RSS. The paper's method of a functional first half of the workload would
need a drive aged per policy and workload (the workload's keys are then part
of the saved drive).""")

    return "\n\n".join(parts)


def finding(rows: list[dict]) -> str:
    """The page's findings bullet on the paper's scale (the 10 M-write rows)."""
    d = Rows(rows)
    T10 = [("msr-10m", "MSR"), ("dtrs-10m", "DTRS"), ("tpcc-10m", "TPC-C")]
    cut = {w: (1 - d(w, "haml", "waf", 10) / d(w, "double", "waf", 10)) * 100 for w, _ in T10}
    below = all(c > 0 for c in cut.values())
    under = and_list(f"{fmt(cut[w], 0) if below else pct(d(w, 'haml', 'waf', 10), d(w, 'double', 'waf', 10), 0)} % ({t})"
                     for w, t in T10)
    asa = all(d(w, "asa", "waf", 10) < d(w, "haml", "waf", 10) for w, _ in T10)
    syn = all(d(w, "haml", "waf", 10) > d(w, "double", "waf", 10) for w in ("hotcold", "shifting"))
    zero = all(abs(d(w, "haml", "rank_corr", 10)) < 0.1 for w, _ in T10)
    hc = pct(d("hotcold", "haml", "waf", 10), d("hotcold", "double", "waf", 10))
    return f"""\
- **At the paper's scale, on the three looped real traces, {"it does" if below else "it does not either"}**: on the
  256 GiB Table III drive with about 10 M LBA writes per trace (section
  below), HAML-K's WAF is {under} {"under" if below else "against"}
  `double`'s, and ASA-FTL's {"lower still" if asa else "not lower"}; on the synthetic workloads at 10 M
  writes it {"stays above" if syn else "is not above"} `double` (hot/cold {hc} %). The gain does not come
  from ordering data by death time (rank correlations {"about 0" if zero else "not about 0"} there too)."""
