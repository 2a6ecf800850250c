"""The "What the recorded run shows" block of docs/results/haml.md, computed
from the committed tables when the page is rendered: docs/results/haml/table.csv
(the page's own) and the sensitivity pages' haml-k, haml-slice, haml-period
and haml-gc tables.

Every figure (WAFs, erases, response times, write stalls and latencies, rank
correlations, shares, CPU seconds, erase-count spreads, open and spare blocks
from the config columns) and every comparison drawn from them ("above" or
"below", "on four of six workloads", "rises with K", "lowest") is computed
here, so a regenerated table cannot leave the prose disagreeing with the
tables. A row the text needs that the tables lack is an error naming it. What
has no data is typed and marked `# typed:` with where it comes from: the
workloads' names in prose, the firmware's mechanisms the text explains the
figures by (which frontiers a policy has, the oracle's bins, why wear
levelling lags), and the thresholds that turn a figure into a word (EQUAL,
ABOUT_0, WELL, NEVER_SHARE, and those beside "much better" and "small").
"""
from __future__ import annotations

import math
import re
import textwrap

import pandas as pd

from ..units import size_bytes
from .haml_paper_scale import WORDS, and_list, fmt, pct, span

POLICY = "config.ftl.placement.policy"
WORKLOAD = "workload_label"
NAME = {"single": "`single`", "double": "`double`", "hotis": "HOTIS", "asa": "ASA-FTL", "haml": "HAML-K",
        "stream": "the oracle"}
POLICIES = ["single", "double", "hotis", "asa", "haml", "stream"]
RUNNABLE = ["single", "double", "hotis", "asa", "haml"]   # what a drive could run: all but the oracle
MONITORED = ["hotis", "asa", "haml"]                      # the policies that classify from the last period
# typed: the prose names of the sweep's workload labels (explore/sweeps/haml*.yaml)
LONG = {"msr_heimdall_rw20_80_105": "the MSR excerpt", "dtrs": "DTRS", "postmark": "PostMark", "tpcc-small": "TPC-C",
        "synthetic shifting": "the shifting workload", "synthetic hotcold": "hot/cold"}
SHORT = {"msr_heimdall_rw20_80_105": "MSR", "dtrs": "DTRS", "postmark": "PostMark", "tpcc-small": "TPC-C",
         "synthetic shifting": "shifting", "synthetic hotcold": "hot/cold"}
MSR, SHIFTING, HOTCOLD = "msr_heimdall_rw20_80_105", "synthetic shifting", "synthetic hotcold"
# typed: the words' thresholds. Two WAFs closer than EQUAL are "equal" (the
# bullets quote WAFs to two decimals); a rank correlation within ABOUT_0 of 0 is
# "about 0", one of at least WELL orders data "well"; the hottest class's
# never-rewritten share is quoted where it is above NEVER_SHARE
EQUAL, ABOUT_0, WELL, NEVER_SHARE = 0.005, 0.05, 0.3, 0.1
# the sensitivity pages: (the page, the column its knob is in, how the knob is written in prose)
KNOBS = {"haml-k": "config.ftl.hot.classes", "haml-slice": "config.ftl.hot.slice_size", "haml-period": "T (paper h)",
         "haml-gc": "config.ftl.placement.gc"}


def _key(v) -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer():
        return str(int(v))
    try:
        f = float(v)
        return str(int(f)) if f.is_integer() else str(v)
    except (TypeError, ValueError):
        return str(v)


def _order(v):
    """Sort key for a knob's values: by the number they start with (3, 36KiB, 12), else as written."""
    s = _key(v)
    digits = s[:len(s) - len(s.lstrip("0123456789."))]
    try:
        return (0, float(digits), s)
    except ValueError:
        return (1, 0.0, s)


class Table:
    """A page's table by (workload, value of `by`); a missing pair or cell is an error naming it."""

    def __init__(self, df: pd.DataFrame, by: str, name: str):
        self.name, self.by = name, by
        self.rows = {(r[WORKLOAD], _key(r[by])): r for _, r in df.iterrows()}
        self.workloads = list(dict.fromkeys(df[WORKLOAD]))

    def row(self, w: str, v):
        if (w, _key(v)) not in self.rows:
            raise KeyError(f"{self.name} has no row for {w} at {self.by} = {v}, which the findings need")
        return self.rows[(w, _key(v))]

    def __call__(self, w: str, v, col: str) -> float:
        x = self.row(w, v).get(col)
        if x is None or (isinstance(x, float) and math.isnan(x)) or x == "":
            raise KeyError(f"{self.name}: {w} at {self.by} = {v} has no {col}, which the findings need")
        return float(x)

    def text(self, w: str, v, col: str) -> str:
        x = self.row(w, v).get(col)
        if x is None or (isinstance(x, float) and math.isnan(x)):
            raise KeyError(f"{self.name}: {w} at {self.by} = {v} has no {col}, which the findings need")
        return str(x)

    def values(self, w: str) -> list[str]:
        return sorted({v for (ww, v) in self.rows if ww == w}, key=_order)


def _w2(a: float, b: float) -> tuple[str, str]:
    """Two WAFs to two decimals, or to three where two would print them alike."""
    nd = 3 if fmt(a, 2) == fmt(b, 2) else 2
    return fmt(a, nd), fmt(b, nd)


def _or_list(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _word(n: int) -> str:
    """n in words up to six (haml_paper_scale.WORDS), in figures above."""
    return WORDS[n] if 0 <= n < len(WORDS) else f"{n:,}"


def _of(n: int, m: int) -> str:
    """n of m in words: "all four", "none of the six", "three of six"."""
    return f"all {_word(m)}" if n == m else f"none of the {_word(m)}" if n == 0 else f"{_word(n)} of {_word(m)}"


def _side(a: float, b: float, tol: float = EQUAL) -> str:
    return "equal" if abs(a - b) < tol else "above" if a > b else "below"


def _lowest(t: Table, w: str, among) -> str:
    return min(among, key=lambda p: t(w, p, "ftl.waf"))


def frontiers(t: Table, w: str, p: str) -> int:
    """The write frontiers policy p has in workload w's run, from its config columns."""
    # typed: place_frontiers in firmware/ftl/place.c: a class per frontier
    # (`single` and `double` 1, HOTIS 2, ASA-FTL 3, HAML-K and the oracle K),
    # plus one for relocated data under `double` and the oracle, and under the
    # classifying policies when ftl.placement.gc is `separate`
    classes = {"single": 1, "double": 1, "hotis": 2, "asa": 3}.get(p) or int(t(w, p, "config.ftl.hot.classes"))
    own = p in ("double", "stream") or (p != "single" and t.text(w, p, "config.ftl.placement.gc") == "separate")
    return classes + own


def open_and_spare(t: Table, w: str, p: str) -> tuple[int, int]:
    """(the most blocks policy p's frontiers hold open, the drive's spare blocks), from the config columns."""
    def c(k):
        return t.text(w, p, "config." + k)
    dies = int(float(c("flash.channels"))) * int(float(c("flash.dies_per_channel"))) * int(float(c("flash.planes_per_die")))
    block = int(float(c("flash.pages_per_block"))) * size_bytes(c("flash.page_size"))
    spare = dies * int(float(c("flash.blocks_per_plane"))) - size_bytes(c("nvme.namespace_size")) // block
    # typed: each frontier has one open block per die and plane (docs/firmware.md, "frontiers")
    return frontiers(t, w, p) * dies, spare


def render(df: pd.DataFrame, sens: dict[str, pd.DataFrame], paper_scale: str, paired: str = "",
           rt_paired: dict | None = None, sens_pc=None) -> str:
    """The block's markdown. df: the page's table (labelled, with rank_corr and
    cold_in_hot, one row per point); sens: the sensitivity pages' tables by page name (labelled,
    haml-period with its "T (paper h)" column, with rank_corr); paper_scale: the
    paper-scale bullet (haml_paper_scale.finding); paired: a sentence on HAML-K against `double` paired by
    drive history (haml.paired_summary), ending the bullet that compares them by their means; rt_paired:
    {workload: (mean, half-width)} of HAML-K's mean response time against `double`'s in %, paired by drive
    history (haml._paired), which the response-time sentence then groups by its interval; sens_pc: (page, workload,
    a, b) -> (mean, half-width) of the WAF at knob value a against b's in %, paired by drive history, or None
    (haml.sensitivity_pairs): with it the sensitivity sentences call a setting better or worse only beyond that
    interval and quote it; without it (one run per point) they compare the means, EQUAL apart."""
    t = Table(df, POLICY, "haml/table.csv")
    s = {name: Table(sens[name], KNOBS[name], f"{name}/table.csv") for name in KNOBS}

    def paired_waf(name, w, a, b):
        """(mean, half-width) of the WAF at a against b on a sensitivity page, paired by drive history, or None."""
        return sens_pc(name, w, a, b) if sens_pc else None

    def lower(pc, a, b):
        """a's WAF below b's: beyond the paired interval when there is one, else EQUAL apart."""
        return pc[0] + pc[1] < 0 if pc else a < b - EQUAL

    def higher(pc, a, b):
        return pc[0] - pc[1] > 0 if pc else a > b + EQUAL

    def pc_s(pc):
        return f", {pc[0]:+.1f} ± {pc[1]:.1f} %" if pc else ""
    W = t.workloads
    real = [w for w in W if t.text(w, "single", "config.workload.source") != "synthetic"]
    syn = [w for w in W if w not in real]
    n = len(W)

    def waf(w, p):
        return t(w, p, "ftl.waf")

    def rt(w, p):
        return t(w, p, "latency_us.all.mean")

    # --- the opening paragraph: the runs' setting and the synthetic workloads' waits
    floors = {name: sorted({_key(x) for x in frame["config.ftl.write.at_floor"]}) for name, frame in
              [("haml", df)] + [(k, sens[k]) for k in KNOBS]}
    here = floors["haml"]
    same = all(v == here for v in floors.values())
    links = ", ".join(f"[{k}]({k}.md)" for k in KNOBS)
    setting = " and ".join(f"`{v}`" for v in here)
    if same:
        floor_s = f"Every run here and on the sensitivity pages ({links}) is under `ftl.write.at_floor: {here[0]}`" \
            if len(here) == 1 else f"The runs here and on the sensitivity pages ({links}) are under `ftl.write.at_floor` {setting}"
    else:
        floor_s = (f"The runs here are under `ftl.write.at_floor` {setting}; on the sensitivity pages ("
                   + "; ".join(f"[{k}]({k}.md) {' and '.join(f'`{v}`' for v in floors[k])}" for k in KNOBS) + ")")
    multi = [p for p in POLICIES if all(frontiers(t, w, p) > 1 for w in syn)]
    st_single = [t(w, "single", "ftl.write_stalls") for w in syn]
    st_multi = [t(w, p, "ftl.write_stalls") for w in syn for p in multi]
    st_m = span(st_multi, 0)
    st_m_s = (f"every policy with more than one frontier has {st_m}" if "-" not in st_m
              else f"the policies with more than one frontier have {st_m}")
    wmean = span([t(w, p, "latency_us.write.mean") for w in syn for p in multi], 1)
    wp99 = span([t(w, p, "latency_us.write.p99") for w in syn for p in multi], 1)

    def sides(pairs, subject, other):
        """How subject's response time compares with other's on each workload, in one phrase."""
        by = {}
        for w in pairs:
            by.setdefault(_side(rt(w, subject), rt(w, other), 1e-9), []).append(LONG[w])
        if len(by) == 1:
            return f"{next(iter(by)).replace('equal', 'equal to')} {NAME[other]}'s"
        return "; ".join(f"{k.replace('equal', 'equal to')} {NAME[other]}'s on {and_list(v)}" for k, v in by.items())

    opening = f"""\
**What the recorded run shows** (every figure and comparison below is
computed from the tables on this page and on the sensitivity pages when the
page is rendered). {floor_s}. On the synthetic workloads `single` has
{and_list([fmt(x, 0) for x in st_single])} write stalls (`ftl.write_stalls`) and {st_m_s}, with a
write mean of {wmean} us and a write p99 of {wp99} us; `double`'s mean
response time there is {sides(syn, 'double', 'single')}, and HAML-K's is
{sides(syn, 'haml', 'double')}. How `double`'s host writes waited at the host
floor on these workloads under `ftl.write.at_floor: pass`, while the free pool
looked full at the once-a-second samples: [haml-double-stalls](haml-double-stalls.md)."""

    bullets = []

    # --- 1: separating relocated data
    cut = {w: 1 - waf(w, "double") / waf(w, "single") for w in W}
    most = min(cut[w] for w in real) > max(cut[w] for w in syn)
    top = sum(waf(w, "single") >= max(waf(w, p) for p in POLICIES) for w in real)
    removes = [(waf(w, "single") - waf(w, "double")) / (waf(w, "single") - min(waf(w, p) for p in POLICIES))
               for w in real]
    lowered = [w for w in syn if waf(w, "double") < waf(w, "single") - EQUAL]
    if not lowered:
        low_s = "does not lower WAF"
    elif len(lowered) == len(syn):
        low_s = "lowers WAF" + (" less than on any real trace" if most else "")
    else:
        low_s = f"lowers WAF on {and_list(LONG[w] for w in lowered)} only" + (", and less than on any real trace"
                                                                           if most else "")
    syn_w = "; ".join(f"{LONG[w]} {fmt(waf(w, 'double'), 2)} against {fmt(waf(w, 'single'), 2)}, "
                      f"{pct(waf(w, 'double'), waf(w, 'single'))} %" for w in syn)
    highest = {w: max(POLICIES, key=lambda p: waf(w, p)) for w in syn}
    if len(set(highest.values())) == 1:
        p = next(iter(highest.values()))
        high_s = f"{NAME[p]} has the highest WAF there ({and_list(fmt(waf(w, p), 2) for w in syn)})."
    else:
        high_s = "The highest WAF there: " + "; ".join(f"{NAME[p]}'s on {LONG[w]} ({fmt(waf(w, p), 2)})"
                                                      for w, p in highest.items()) + "."
    bullets.append(f"""\
- **Separating relocated data from host data matters {"most on the real traces" if most else "on real traces and synthetic workloads alike"}.**
  `single` has the highest WAF on {_of(top, len(real))} real traces
  ({span([waf(w, 'single') for w in real], 1)}) and {span([rt(w, 'single') / rt(w, 'double') for w in real], 1)}x the
  response time of `double`, which, only separating the two, removes
  {span([100 * r for r in removes], 0)} % of the WAF `single` has above the lowest policy's there.
  On the {_word(len(syn))} synthetic workloads `double` {low_s} ({syn_w});
  its mean response time is {and_list(fmt(rt(w, 'double') / rt(w, 'single'), 2) + 'x' for w in syn)}
  `single`'s. {high_s}""")

    # --- 2: HAML-K against the simple baselines
    others = [p for p in RUNNABLE if p != "haml"]
    wins = [w for w in W if all(waf(w, "haml") < waf(w, p) - EQUAL for p in others)]
    head = ("does not beat the simple baselines" if not wins else "beats the simple baselines" if len(wins) == n
            else f"beats the simple baselines on {_of(len(wins), n)} workloads")
    group = {"above": [], "equal": [], "below": []}
    for w in W:
        group[_side(waf(w, "haml"), waf(w, "double"))].append(w)
    parts = []
    if group["above"]:
        parts.append(f"above `double` on {_of(len(group['above']), n)} workloads ("
                     + ", ".join(f"{LONG[w]} {' against '.join(_w2(waf(w, 'haml'), waf(w, 'double')))}"
                                 for w in group["above"]) + ")")
    if group["equal"]:
        parts.append(f"equal on {and_list(LONG[w] for w in group['equal'])} ("
                     + ", ".join(f"{fmt(waf(w, 'haml'), 3)} against {fmt(waf(w, 'double'), 3)}"
                                 for w in group["equal"]) + ")")
    if group["below"]:
        below = []
        for w in group["below"]:
            lo = _lowest(t, w, others)
            still = waf(w, lo) < waf(w, "haml")
            b = f"{LONG[w]} ({' against '.join(_w2(waf(w, 'haml'), waf(w, 'double')))}"
            if len(group["below"]) == 1:
                b += f"), where {NAME[lo]} is lower still ({fmt(waf(w, lo), 2)})" if still else ")"
            else:
                b += f"; {NAME[lo]} lower still, {fmt(waf(w, lo), 2)})" if still else ")"
            below.append(b)
        parts.append(f"{'below it' if parts else 'below `double`'} on {and_list(below)}")
    order_s = "Its WAF is " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + "."
    low = {w: _lowest(t, w, RUNNABLE) for w in W}
    hl = [w for w in W if low[w] == "haml"]
    rest = sorted({low[w] for w in W if w not in hl}, key=RUNNABLE.index)
    if not hl:
        low_s = (f"HAML-K is not the lowest of the policies a drive could run on any workload; "
                 f"{_or_list(NAME[p] for p in rest)} is.")
    else:
        margin = and_list(fmt(min(waf(w, p) for p in others) - waf(w, "haml"), 3) for w in hl)
        low_s = (f"{'Only on' if len(hl) == 1 else 'On'} {and_list(LONG[w] for w in hl)} is HAML-K the lowest of "
                 f"the policies a drive could run, by {margin}"
                 + (f"; elsewhere {_or_list(NAME[p] for p in rest)} is." if rest else "."))
    same_order, swaps = 0, []
    for w in W:
        pairs = [(p, q) for i, p in enumerate(POLICIES) for q in POLICIES[i + 1:]]
        sw = [abs(waf(w, p) - waf(w, q)) for p, q in pairs
              if (waf(w, p) - waf(w, q)) * (t(w, p, "ftl.erases") - t(w, q, "ftl.erases")) < 0]
        same_order += not sw
        swaps += sw
    within = "less than 0.001" if fmt(max(swaps or [0]), 3) == "0.000" else f"within {fmt(max(swaps or [0]), 3)}"
    erase_s = ("Erases rank the policies as WAF does on every workload." if not swaps else
               f"Erases rank the policies as WAF does on {_of(same_order, n)} workloads; elsewhere only policies "
               f"{within} in WAF swap places.")
    if rt_paired:  # grouped by the paired interval: beyond it below or above `double`, or within it
        rgroup = {}
        for w in W:
            m, h = rt_paired[w]
            k = "below" if m + h < 0 else "above" if m - h > 0 else "within the interval of"
            rgroup.setdefault(k, []).append(f"{LONG[w]} ({m:+.0f} ± {h:.0f} %)")
        parts = []
        for k in [k for k in ("below", "within the interval of", "above") if k in rgroup]:
            if k == "within the interval of":
                said = "within the 95 % interval of `double`'s" if not parts else "within it"
            else:
                said = f"{k} `double`'s beyond the 95 % interval" if not parts else f"{k} it beyond the interval"
            parts.append(f"{said} on {and_list(rgroup[k])}")
        rt_s = "Mean response times, paired by drive history: " + "; ".join(parts)
    else:
        rgroup = {}
        for w in W:
            v = rt(w, "haml") / rt(w, "double")
            k = "equal to" if fmt(100 * abs(v - 1), 0) == "0" else "above" if v > 1 else "below"
            rgroup.setdefault(k, []).append(f"{LONG[w]} ({fmt(100 * abs(v - 1), 0)} %)")
        rt_s = "Mean response times: " + ", ".join(
            f"{k} `double`'s on {and_list(v)}" if i == 0 else f"{k} on {and_list(v)}"
            for i, (k, v) in enumerate(sorted(rgroup.items(),
                                              key=lambda kv: ["below", "equal to", "above"].index(kv[0]))))
    bullets.append(f"""\
- **HAML-K {head} at the paper's settings.** {order_s} {low_s}
  {erase_s} {rt_s}.{" " + paired if paired else ""}""")
    bullets.append(paper_scale)

    # --- 3: why, from the rank correlations
    rc = {w: t(w, "haml", "rank_corr") for w in W}

    def about(r):
        return "about 0" if abs(r) < ABOUT_0 else f"{'negative' if r < 0 else 'positive'} ({fmt(r, 2)})"
    zero = [w for w in real if abs(rc[w]) < ABOUT_0]
    cih = {w: t(w, "haml", "cold_in_hot") for w in W}
    never = [w for w in W if cih[w] > NEVER_SHARE]
    anti = sum(t(SHIFTING, p, "rank_corr") < 0 for p in MONITORED)
    if anti == len(MONITORED):
        lag = ("Classes decided from the last period lag a hot set that moves (on the shifting workload every "
               "policy that looks back is anti-correlated)")
    elif anti:
        lag = (f"Classes decided from the last period lag a hot set that moves (on the shifting workload "
               f"{_word(anti)} of the {_word(len(MONITORED))} policies that look back are anti-correlated)")
    else:
        lag = "On the shifting workload no policy that looks back is anti-correlated"
    good = [w for w in W if rc[w] >= WELL]
    if good:
        vs = "; ".join(f"{fmt(rc[w], 2)}, {_side(rc[w], t(w, 'hotis', 'rank_corr'), 0.005)} HOTIS's "
                       f"{fmt(t(w, 'hotis', 'rank_corr'), 2)}" for w in good)
        loses = [w for w in good if waf(w, "haml") > waf(w, "double") + EQUAL]
        well = (f"{'Only on' if len(good) < n else 'On'} {and_list(LONG[w] for w in good)} does HAML order data "
                f"well ({vs})")
        if loses:
            well += (", and it still loses to `double` there ("
                     + "; ".join(f"{' against '.join(_w2(waf(w, 'haml'), waf(w, 'double')))}" for w in loses) + "):")
        else:
            well += (", and there it is not above `double` ("
                     + "; ".join(f"{' against '.join(_w2(waf(w, 'haml'), waf(w, 'double')))}" for w in good) + ").")
    else:
        loses = []
        well = f"On no workload does HAML order data well (its rank correlation is at most {fmt(max(rc.values()), 2)})."
    never_s = (f"; {span([100 * cih[w] for w in never], 0)} % of what HAML's hottest class receives on "
               f"{and_list(LONG[w] for w in never)} is never rewritten" if never else "")
    bullets.append(f"""\
- **Why, from the data**: the rank correlation between the class HAML picks
  and the data's real death time is at most {fmt(max(rc[w] for w in real), 2)} on the real traces{f" (about 0 on {and_list(LONG[w] for w in zero)})" if zero else ""}
  and {about(rc[SHIFTING])} on the shifting workload{never_s}. {lag},
  and per-slice figures scaled by their maximum squeeze most slices against
  the axes, where a slice written once or twice in a period gets an interval
  that only says when in the period it was written. {well}""")

    # --- 4: open blocks, and K
    open_h, spare = open_and_spare(t, W[0], "haml")
    open_d, _ = open_and_spare(t, W[0], "double")
    K = int(t(W[0], "haml", "config.ftl.hot.classes"))
    gcf = "with a GC frontier" if t.text(W[0], "haml", "config.ftl.placement.gc") == "separate" else "without a GC frontier"
    k = s["haml-k"]
    rises, flat = [], []
    for w in k.workloads:
        vals = k.values(w)
        a, b = k(w, vals[0], "ftl.waf"), k(w, vals[-1], "ftl.waf")
        seq = [k(w, v, "ftl.waf") for v in vals]
        mono = all(y >= x for x, y in zip(seq, seq[1:]))
        pc = paired_waf("haml-k", w, vals[-1], vals[0])
        (rises if higher(pc, b, a) else flat).append((w, vals[0], vals[-1], a, b, mono, pc))
    k_parts = []
    if rises:
        figs = [f"{LONG[w]} ({fmt(a, 2)} at K = {v0} to {fmt(b, 2)} at K = {v1}{pc_s(pc)})" if i == 0 else
                f"{LONG[w]} ({fmt(a, 2)} to {fmt(b, 2)}{pc_s(pc)})" for i, (w, v0, v1, a, b, _, pc) in enumerate(rises)]
        monos = [r for r in rises if r[5]]
        q = ("" if len(monos) == len(rises) else ", though not monotonically" if not monos
             else f", monotonically only on {and_list(LONG[r[0]] for r in monos)}")
        k_parts.append(f"WAF rises with K ([haml-k](haml-k.md)) on {and_list(figs)}{q}")
    flats = []
    for w, v0, v1, a, b, _, pc in flat:
        r0, r1 = k(w, v0, "rank_corr"), k(w, v1, "rank_corr")
        word = "rises to" if r1 > r0 + 0.005 else "falls to" if r1 < r0 - 0.005 else "stays at"
        flats.append(f"{LONG[w]} ({fmt(a, 2)} at K = {v0}, {fmt(b, 2)} at K = {v1}{pc_s(pc)}, where the rank "
                     f"correlation {word} {fmt(r1, 2)})")
    if flats:
        k_parts.append(f"{'it does not' if rises else 'WAF does not rise with K ([haml-k](haml-k.md))'} on "
                       f"{and_list(flats)}")
    lead = "every class costs open blocks." if loses else "Every class costs open blocks."
    # typed: the paper's drive (256 GB, HAML-SSD Table III) against these 1 GiB
    bullets.append(f"""\
- **{lead}** Each frontier keeps one open block per
  die: HAML-{K} {gcf} holds up to {open_h} of the drive's {spare} spare
  blocks open, `double` {open_d}. {"; ".join(k_parts)}.
  On the paper's 256 GB drive the same {open_h} blocks would be noise.""")

    # --- 5: the oracle
    olow = [w for w in W if _lowest(t, w, POLICIES) == "stream"]
    lead_w = {w: 1 - waf(w, "stream") / min(waf(w, p) for p in RUNNABLE) for w in olow}
    big = max(olow, key=lead_w.get) if olow else None
    beaten = [w for w in W if w not in olow]
    ora = f"is the lowest on {_of(len(olow), n)} workloads"
    if big:
        nb = _lowest(t, big, RUNNABLE)
        ora += (f" (its largest lead: {fmt(waf(big, 'stream'), 2)} against {NAME[nb]}'s {fmt(waf(big, nb), 2)} on "
                f"{LONG[big]}, {pct(waf(big, 'stream'), waf(big, nb), 0, sign=False)} % lower)")
    if beaten:
        bs = []
        for w in beaten:
            ps = sorted([p for p in RUNNABLE if waf(w, p) < waf(w, "stream")], key=lambda p: waf(w, p))
            bs.append(f"on {LONG[w]} {and_list(NAME[p] for p in ps)} beat{'s' if len(ps) == 1 else ''} it "
                      f"({and_list(fmt(waf(w, p), 3) for p in ps)} against {fmt(waf(w, 'stream'), 3)})")
        ora += ", but it is not a true lower bound: " + "; ".join(bs)
    Ko = int(t(MSR, "stream", "config.ftl.hot.classes"))
    cls = [float(x) for x in t.text(MSR, "stream", "placement.class_lba_writes").strip("[]").split(",")]
    used = [i for i, x in enumerate(cls) if x > 0]
    share0 = 100 * cls[0] / sum(cls)
    nb = _lowest(t, MSR, RUNNABLE)
    if MSR in olow:
        least = min(olow, key=lead_w.get) == MSR
        msr_s = (f"on the MSR excerpt it wins {'by least' if least else 'by'} "
                 f"({fmt(waf(MSR, 'stream'), 3)} against {NAME[nb]}'s {fmt(waf(MSR, nb), 3)}, "
                 f"{pct(waf(MSR, 'stream'), waf(MSR, 'double'), 0, sign=False)} % below `double`)")
    else:
        msr_s = (f"on the MSR excerpt it does not win ({fmt(waf(MSR, 'stream'), 3)} against {NAME[nb]}'s "
                 f"{fmt(waf(MSR, nb), 3)})")
    # typed: the oracle's bins (platform/host/oracle.cpp, oracle_class): class
    # 0 is a next write within 1/2^(K-2) of a drive-write, class K-1 none
    if used == [0, Ko - 1]:
        bins = (f"{fmt(share0, 0)} % of the host writes there are rewritten within 1/{2 ** (Ko - 2)} of a "
                "drive-write (its first bin) and the rest never, so it has only those two classes to separate")
    else:
        bins = (f"its host writes there fall into {_word(len(used))} of its "
                f"{Ko} classes, {fmt(share0, 0)} % of them into the first (rewritten within 1/{2 ** (Ko - 2)} of a "
                "drive-write)")
    # typed: what WAF is left on the MSR excerpt (GC moving preconditioning's
    # cold data) is the mechanism, not a figure of the tables
    bullets.append(f"""\
- **The oracle** (fixed log-scale death-time bins, its own GC frontier)
  {ora}, and {msr_s}: {bins}. What WAF is left on the MSR excerpt comes from GC
  moving the cold data left by preconditioning, which host-write placement
  cannot change.""")

    # --- 6: settings
    per = s["haml-period"]
    slc = s["haml-slice"]
    gc = s["haml-gc"]

    def ref_value(tab: Table, col: str, w: str) -> str:
        """The knob's value in the page's own HAML-K run of workload w (its default)."""
        want = t.text(w, "haml", col)
        hits = [v for v in tab.values(w) if _key(tab.text(w, v, col)) == _key(want)]
        if not hits:
            raise KeyError(f"{tab.name} has no row for {w} with {col} = {want}, HAML-K's setting on this page")
        return hits[0]

    def deg(g):
        # typed: the words for a WAF cut against the page's own setting (20 % and more "much", 5 % "somewhat")
        return "much better" if g >= 0.2 else "somewhat better" if g >= 0.05 else "slightly better"

    wide = 0
    for w in W:
        own = [waf(w, p) for p in RUNNABLE if p != "single"]
        sets = [tab(w, v, "ftl.waf") for tab in s.values() for v in tab.values(w)]
        wide += bool(sets) and (max(sets) - min(sets)) > (max(own) - min(own))
    head6 = ("Settings matter more than the method" if wide == n
             else f"Settings matter more than the method on {_of(wide, n)} workloads")
    shorter, longer, none = [], [], []
    for w in per.workloads:
        r = ref_value(per, "config.ftl.hot.period", w)
        vals = per.values(w)
        best = min(vals, key=lambda v: per(w, v, "ftl.waf"))
        a, b = per(w, best, "ftl.waf"), per(w, r, "ftl.waf")
        seq = [per(w, v, "ftl.waf") for v in vals]
        extra = ""
        if a < min(waf(w, p) for p in POLICIES):
            extra += ", below every policy on this table there"
        if all(y > x for x, y in zip(seq, seq[1:])):
            extra += f", WAF rising with T from {vals[0]} to {vals[-1]} h"
        elif all(y < x for x, y in zip(seq, seq[1:])):
            extra += f", WAF falling with T from {vals[0]} to {vals[-1]} h"
        pc = paired_waf("haml-period", w, best, r) if best != r else None
        if best == r or not lower(pc, a, b):
            none.append(f"{LONG[w]} ({fmt(b, 2)} at {r} h" + (f"; its lowest mean, {fmt(a, 2)} at {best} h, is "
                                                              f"{pc[0]:+.1f} ± {pc[1]:.1f} %" if pc else "") + ")")
            continue
        item = (w, f"{deg(1 - a / b)} on {LONG[w]} (WAF {fmt(a, 2)} at T = {best}{{h}} against {fmt(b, 2)} at "
                   f"{r} h{pc_s(pc)}{extra})")
        (shorter if float(best) < float(r) else longer).append(item)
    first = [True]

    def hours(items):
        out = []
        for _, txt in items:
            out.append(txt.replace("{h}", " 'paper hours'" if first[0] else ""))
            first[0] = False
        return and_list(out)
    pp = []
    if shorter:
        pp.append(f"{'' if pp else 'HAML '}with a shorter period does {hours(shorter)}")
    if longer:
        pp.append(f"{'' if pp else 'HAML '}with a longer period does {hours(longer)}")
    if none:
        pp.append(f"no other period does better{' beyond the interval' if sens_pc else ''} on {and_list(none)}")
    period_s = "on [haml-period](haml-period.md), " + ", ".join(pp)
    help_, nohelp = [], []
    for w in slc.workloads:
        r = ref_value(slc, "config.ftl.hot.slice_size", w)
        small = slc.values(w)[0]
        a, b = slc(w, small, "ftl.waf"), slc(w, r, "ftl.waf")
        pc = paired_waf("haml-slice", w, small, r)
        (help_ if lower(pc, a, b) else nohelp).append((w, small, r, a, b, pc))

    def slice_fig(items):
        sm, rf = items[0][1], items[0][2]
        if len(items) == 1:
            return f"{fmt(items[0][3], 2)} at {sm.replace('KiB', ' KiB')} against {fmt(items[0][4], 2)} at " \
                   f"{rf.replace('KiB', ' KiB')}{pc_s(items[0][5])}"
        if all(x[1] == sm and x[2] == rf for x in items):
            ch = "; paired, " + and_list(f"{pc[0]:+.1f} ± {pc[1]:.1f} %" for *_, pc in items) \
                if all(x[5] for x in items) else ""
            return (f"{and_list(f'{SHORT[w]} {fmt(a, 2)}' for w, _, _, a, _, _ in items)} at "
                    f"{sm.replace('KiB', ' KiB')} against {and_list(fmt(b, 2) for *_, b, _ in items)} at "
                    f"{rf.replace('KiB', ' KiB')}{ch}")
        return "; ".join(f"{SHORT[w]} {fmt(a, 2)} at {x.replace('KiB', ' KiB')} against {fmt(b, 2)} at "
                         f"{r.replace('KiB', ' KiB')}{pc_s(pc)}" for w, x, r, a, b, pc in items)

    def who(items):
        ws = [x[0] for x in items]
        return (f"all {_word(len(ws))} workloads" if len(ws) > 1 and set(ws) == set(slc.workloads)
                else "the real traces" if set(ws) == set(real) else and_list(LONG[w] for w in ws))
    slice_s = ""
    if help_:
        slice_s = f"smaller slices ([haml-slice](haml-slice.md)) help {who(help_)} ({slice_fig(help_)})"
        if nohelp:
            slice_s += f" but not {who(nohelp)} ({slice_fig(nohelp)})"
    else:
        slice_s = f"smaller slices ([haml-slice](haml-slice.md)) help no workload ({slice_fig(nohelp)})"
    cuts, raises, level = [], [], []
    for w in gc.workloads:
        a, b = gc(w, "cluster", "ftl.waf"), gc(w, "separate", "ftl.waf")
        pc = paired_waf("haml-gc", w, "cluster", "separate")
        if not pc:
            (cuts if a < b else raises).append((w, a, b, None))
        else:
            (cuts if lower(pc, a, b) else raises if higher(pc, a, b) else level).append((w, a, b, pc))

    def which(ws):
        ws = [x[0] for x in ws]
        if set(ws) == set(syn):
            return "both synthetic workloads" if len(syn) == 2 else f"all {_word(len(syn))} synthetic workloads"
        if set(ws) == set(real):
            return "every real trace"
        return and_list(LONG[w] for w in ws)
    gparts = []
    if cuts:
        cf = []
        for w, a, b, pc in cuts:
            f = f"{fmt(a, 2)} against {fmt(b, 2)} on {LONG[w]}{pc_s(pc)}"
            if a < waf(w, "stream"):
                f += f", better than the oracle's {fmt(waf(w, 'stream'), 2)}"
            cf.append(f)
        gparts.append(f"cuts WAF on {which(cuts)} ({'; '.join(cf)})")
    if raises:
        w, a, b, pc = max(raises, key=lambda x: x[1] / x[2])
        gparts.append(f"raises it on {which(raises)} ({LONG[w]} {fmt(b, 2)} to {fmt(a, 2)}{pc_s(pc)})")
    if level:
        gparts.append(f"leaves it within the drive histories' interval on {which(level)} ("
                      + "; ".join(f"{LONG[w] + ' ' if len(level) > 1 else ''}{fmt(b, 2)} to {fmt(a, 2)}{pc_s(pc)}"
                                  for w, a, b, pc in level) + ")")
    gc_s = ("putting relocated data into its slice's class instead of a GC frontier ([haml-gc](haml-gc.md)) "
            + (" but ".join(gparts) if len(gparts) < 3 else ", ".join(gparts[:-1]) + " and " + gparts[-1]))
    multi_best = {}
    for name, tab in s.items():
        multi_best[name] = {min(tab.values(w), key=lambda v: tab(w, v, "ftl.waf")) for w in tab.workloads}
    everywhere = [name for name, b in multi_best.items() if len(b) == 1]
    win_s = ("No single setting wins everywhere." if not everywhere else
             " ".join(f"On [{name}]({name}.md) {next(iter(multi_best[name]))} is best on every workload."
                      for name in everywhere))
    bullets.append(f"""\
- **{head6}**: {period_s}, {slice_s}, and {gc_s}. {win_s}""")

    # --- 7: clustering cost
    cpu = [1000 * t(w, "haml", "placement.monitor_cpu_s") for w in W]
    share = max(t(w, "haml", "placement.monitor_cpu_s") / t(w, "haml", "host.sim_time_s") for w in W)
    slices = math.ceil(size_bytes(t.text(W[0], "haml", "config.nvme.namespace_size"))
                       / size_bytes(t.text(W[0], "haml", "config.ftl.hot.slice_size")))
    iters = int(t(W[0], "haml", "config.ftl.hot.max_iter"))
    mode = t.text(W[0], "haml", "config.cpu.mode")
    # typed: "small" is under 1 % of the simulated time
    # typed: that the native CPU's cost table was calibrated on the ISS
    # (docs/results/calibration.md)
    bullets.append(f"""\
- **Clustering cost** is {"small" if share < 0.01 else "not small"} at these sizes: the monitor and HAML's
  software K-Means take {span(cpu, 0)} ms of controller CPU over the timed half,
  at most {fmt(100 * share, 2)} % of its simulated time ({slices:,} points, K = {K}, at most {iters}
  iterations per period; the {mode} CPU's cost table calibrated on the ISS,
  docs/results/calibration.md).""")

    # --- 8: wear levelling
    spread = {(w, p): t(w, p, "ftl.erase_count.max") - t(w, p, "ftl.erase_count.min") for w in W for p in POLICIES}
    thr = int(t(W[0], "haml", "config.ftl.wear.threshold"))
    look = int(t(W[0], "haml", "config.ftl.wear.check_erases"))
    over = [k for k, v in spread.items() if v > thr]
    allover = [w for w in W if all(spread[(w, p)] > thr for p in POLICIES)]
    if not over:
        wear_s = f"holds the spread to its threshold of {thr} on every point"
    else:
        wear_s = (f"does not hold the spread to its threshold of {thr}: {fmt(len(over), 0)} of {len(spread)} points "
                  "end above it")
        if allover:
            # typed: why (the firmware's migration moves one block per look)
            wear_s += (", every policy on " + and_list(
                f"{LONG[w]} ({span([spread[(w, p)] for p in POLICIES], 0)})" for w in allover)
                + ", workloads that concentrate writes, because it moves one block per look while the hot class "
                "wears many")
    bullets.append(f"""\
- **Wear levelling**: erase counts spread by {span(list(spread.values()), 0)} at the end; migration at
  one look every {look} erases {wear_s}.""")

    return _wrap(opening) + "\n\n" + "\n".join(b if b is paper_scale else _wrap(b) for b in bullets)


def _wrap(text: str) -> str:
    """A paragraph or a bullet refilled to 78 columns (the f-strings' lines break where the figures fall)."""
    bullet = text.startswith("- ")
    text = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), " ".join(text.split()))
    text = re.sub(r" (%|GB|h\b|us\b|ms\b)", "\0\\1", text)   # no line starts with a unit
    return textwrap.fill(text, width=78, subsequent_indent="  " if bullet else "", break_long_words=False,
                         break_on_hyphens=False).replace("\0", " ")
