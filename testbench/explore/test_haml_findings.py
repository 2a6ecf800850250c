"""docs/results/haml.md's "What the recorded run shows" block follows the
committed tables: its figures and verdict words are computed from
haml/table.csv and the sensitivity pages' tables when the page is rendered, so
a regenerated table cannot leave the prose disagreeing with the tables."""
from pathlib import Path

import pytest

from ssdvp_explore.pages import haml, haml_findings, haml_paper_scale
from ssdvp_explore.pages.haml_findings import EQUAL, LONG, MSR, RUNNABLE, WELL
from ssdvp_explore.pages.haml_paper_scale import fmt
from ssdvp_explore.plots import WORKLOAD
from ssdvp_explore.render import read_table

RESULTS = Path(__file__).resolve().parents[2] / "docs" / "results"


def runs():
    """The page's table as committed: one row per run, three runs (drive histories) per point."""
    return haml._label(read_table(RESULTS / "haml" / "table.csv"))


def data():
    """The page's table as the findings see it, one row per (workload, policy): each number the mean over the
    point's runs, rank_corr and cold_in_hot the means of each run's (haml.per_point, as haml.findings uses);
    the sensitivity pages' tables (one run per point); paper_scale.csv's rows."""
    return haml.per_point(runs()), haml.sensitivity_tables(RESULTS), haml.paper_scale_rows(RESULTS / "haml")


def text(df, sens, rows):
    """The block rendered from df as it is (haml.findings would recompute rank_corr from each point's first run's
    class table), as words, whatever the line breaks."""
    return " ".join(haml_findings.render(df, sens, haml_paper_scale.finding(rows)).split())


def t_paired(block):
    return " ".join(block.split())


def setv(df, workload, by, value, col, v):
    hit = (df[WORKLOAD] == workload) & (df[by].astype(str) == str(value))
    assert hit.sum() == 1, (workload, value)
    df.loc[hit, col] = v


def cell(df, workload, by, value, col="ftl.waf"):
    """One figure of a table, read as the test's own check on what the block quotes."""
    hit = (df[WORKLOAD] == workload) & (df[by].astype(str) == str(value))
    assert hit.sum() == 1, (workload, value)
    return float(df.loc[hit, col].iloc[0])


def f2(x):
    return fmt(x, 2)


def test_committed_data_gives_the_committed_block():
    df, sens, rows = data()
    sens_runs = haml.sensitivity_runs(RESULTS)
    block = haml.findings(runs(), sens, rows, sens_runs)
    assert block in (RESULTS / "haml.md").read_text()
    # the test's points are what the page's findings compare: one row per point, and the block rendered from them
    paired = haml.paired_summary(runs(), "haml", "double") + " " + haml.paired_lower(runs(), "haml", RUNNABLE)
    rt = haml._paired(runs(), "haml", "double", "latency_us.all.mean")
    pc = haml.sensitivity_pairs(sens_runs)
    assert len(df) == 36 and haml_findings.render(df, sens, haml_paper_scale.finding(rows), paired, rt, pc) == block
    t = text(df, sens, rows)
    ws = list(dict.fromkeys(df[WORKLOAD]))
    sh, hc, tp = "synthetic shifting", "synthetic hotcold", "tpcc-small"
    others = [p for p in RUNNABLE if p != "haml"]

    def waf(w, p):
        return cell(df, w, haml.POLICY, p)

    # the committed means: HAML-K below every other policy a drive could run nowhere ("does not beat"); above
    # `double` on every workload but TPC-C, below it there with ASA-FTL lower still; not the lowest of the
    # policies a drive could run anywhere (`double` or ASA-FTL is), so no "equal"
    assert len(ws) == 6 and not any(all(waf(w, "haml") < waf(w, p) - EQUAL for p in others) for w in ws)
    above = [w for w in ws if waf(w, "haml") > waf(w, "double") + EQUAL]
    below = [w for w in ws if waf(w, "haml") < waf(w, "double") - EQUAL]
    assert below == [tp] and above == [w for w in ws if w != tp]
    assert min(others, key=lambda p: waf(tp, p)) == "asa" and waf(tp, "asa") < waf(tp, "haml")
    assert {min(RUNNABLE, key=lambda p: waf(w, p)) for w in ws} == {"double", "asa"}
    assert "**HAML-K does not beat the simple baselines at the paper's settings.**" in t
    assert "Its WAF is above `double` on five of six workloads (" + ", ".join(
        f"{LONG[w]} {f2(waf(w, 'haml'))} against {f2(waf(w, 'double'))}" for w in above) + ") and below it on " \
        f"TPC-C ({f2(waf(tp, 'haml'))} against {f2(waf(tp, 'double'))}), where ASA-FTL is lower still " \
        f"({f2(waf(tp, 'asa'))}). HAML-K is not the lowest of the policies a drive could run on any workload; " \
        "`double` or ASA-FTL is." in t
    assert "equal on" not in t
    # `double` against `single` on the synthetic workloads: below on both, and less than on any real trace
    real = [w for w in ws if w not in (sh, hc)]
    assert all(waf(w, "double") < waf(w, "single") - EQUAL for w in (sh, hc))
    assert min(1 - waf(w, "double") / waf(w, "single") for w in real) > \
        max(1 - waf(w, "double") / waf(w, "single") for w in (sh, hc))
    assert (f"`double` lowers WAF less than on any real trace (the shifting workload {f2(waf(sh, 'double'))} against "
            f"{f2(waf(sh, 'single'))}, {(waf(sh, 'double') / waf(sh, 'single') - 1) * 100:.1f} %; hot/cold "
            f"{f2(waf(hc, 'double'))} against {f2(waf(hc, 'single'))}, "
            f"{(waf(hc, 'double') / waf(hc, 'single') - 1) * 100:.1f} %)") in t
    # only on hot/cold does HAML order data well (its rank correlation, the mean of the runs', above HOTIS's),
    # and there HAML-K is above `double`
    rc = {w: cell(df, w, haml.POLICY, "haml", "rank_corr") for w in ws}
    rc_hotis = cell(df, hc, haml.POLICY, "hotis", "rank_corr")
    assert [w for w in ws if rc[w] >= WELL] == [hc] and rc[hc] > rc_hotis + 0.005
    assert waf(hc, "haml") > waf(hc, "double") + EQUAL
    assert (f"Only on hot/cold does HAML order data well ({f2(rc[hc])}, above HOTIS's {f2(rc_hotis)}), and it still "
            f"loses to `double` there ({f2(waf(hc, 'haml'))} against {f2(waf(hc, 'double'))}): - "
            "**every class costs open blocks.**") in t
    assert "holds up to 56 of the drive's 256 spare blocks open, `double` 16" in t
    # haml-k: WAF rises with K on PostMark (monotonically) and on the shifting workload (not), not on MSR
    k = sens["haml-k"]
    K = "config.ftl.hot.classes"
    pm = [cell(k, "postmark", K, n) for n in range(3, 9)]
    shk = [cell(k, sh, K, n) for n in range(3, 9)]
    assert pm[-1] > pm[0] + EQUAL and shk[-1] > shk[0] + EQUAL
    assert all(b >= a for a, b in zip(pm, pm[1:])) and not all(b >= a for a, b in zip(shk, shk[1:]))
    assert cell(k, MSR, K, 8) < cell(k, MSR, K, 3) + EQUAL
    assert (f"on PostMark ({f2(pm[0])} at K = 3 to {f2(pm[-1])} at K = 8) and the shifting workload "
            f"({f2(shk[0])} to {f2(shk[-1])}), monotonically only on PostMark; it does not on the MSR excerpt") in t
    # haml-slice: the smallest slice's mean is below HAML-K's own (352 KiB on this page) on all three workloads,
    # but paired by drive history only on MSR and PostMark beyond the interval; on the shifting workload the
    # per-history changes straddle 0, so the page does not count it as helped
    sl, S = sens["haml-slice"], "config.ftl.hot.slice_size"
    assert set(df.loc[df[haml.POLICY] == "haml", S]) == {"352KiB"}
    assert all(cell(sl, w, S, "36KiB") < cell(sl, w, S, "352KiB") - EQUAL for w in (MSR, "postmark", sh))
    raw = sens_runs["haml-slice"]

    def per_history(w, v):
        d = raw[(raw[WORKLOAD] == w) & (raw[S] == v)]
        return dict(zip(d[haml.SEED], d["ftl.waf"].astype(float)))
    for w, helped in ((MSR, True), ("postmark", True), (sh, False)):
        a, b = per_history(w, "36KiB"), per_history(w, "352KiB")
        ch = [100 * (a[k] / b[k] - 1) for k in b]
        assert len(ch) == 3 and (max(ch) < 0) == helped   # the three histories agree in sign only where helped
        m, h = pc("haml-slice", w, "36KiB", "352KiB")
        assert (m + h < 0) == helped and abs(m - sum(ch) / 3) < 1e-9
    assert "smaller slices ([haml-slice](haml-slice.md)) help the MSR excerpt and PostMark" in t_paired(block)
    assert "but not the shifting workload" in t_paired(block)
    # without the pairs (one run per point) the same means would say all three
    assert "smaller slices ([haml-slice](haml-slice.md)) help all three workloads" in t
    # wear levelling: counted over the points (each spread the mean of its runs'), not the runs
    thr = {int(x) for x in df["config.ftl.wear.threshold"]}
    assert len(thr) == 1
    thr = thr.pop()
    over = int(((df["ftl.erase_count.max"] - df["ftl.erase_count.min"]) > thr).sum())
    assert 0 < over < len(df)
    assert f"does not hold the spread to its threshold of {thr}: {over} of {len(df)} points end above it" in t
    assert "runs end above it" not in t
    assert "{" not in t and "}" not in t   # no placeholder left unfilled


def test_figures_and_verdicts_follow_the_rows():
    df, sens, rows = data()
    sh, hc, tp = "synthetic shifting", "synthetic hotcold", "tpcc-small"
    K, S = "config.ftl.hot.classes", "config.ftl.hot.slice_size"
    k, sl = sens["haml-k"], sens["haml-slice"]
    others = [p for p in RUNNABLE if p != "haml"]

    def waf(w, p):
        return cell(df, w, haml.POLICY, p)
    # the committed means the edits change: HAML-K above `double` on DTRS and hot/cold; on TPC-C a figure other
    # than 1.70; WAF rising with K on PostMark; the smallest slice helping the shifting workload
    assert all(waf(w, "haml") > waf(w, "double") + EQUAL for w in ("dtrs", hc)) and f2(waf(tp, "haml")) != "1.70"
    assert cell(k, "postmark", K, 8) > cell(k, "postmark", K, 3) + EQUAL
    assert cell(sl, sh, S, "36KiB") < cell(sl, sh, S, "352KiB") - EQUAL
    setv(df, "dtrs", haml.POLICY, "haml", "ftl.waf", 1.0)              # HAML-K lowest on DTRS
    setv(df, hc, haml.POLICY, "haml", "ftl.waf", 5.0)                  # and on hot/cold, below `double` there
    setv(df, tp, haml.POLICY, "haml", "ftl.waf", 1.7)                  # below `double` on TPC-C, ASA-FTL lower
    setv(k, "postmark", K, 8, "ftl.waf", 2.5)                          # WAF no longer rises with K on PostMark
    setv(sl, sh, S, "36KiB", "ftl.waf", 5.6)                           # the smallest slice no help on shifting
    t = text(df, sens, rows)

    # what the changed cells make of the rows: HAML-K below every other policy on DTRS and hot/cold (so below
    # `double`), TPC-C's 1.7 between ASA-FTL and `double`; MSR, PostMark and shifting still above `double`
    ws = list(dict.fromkeys(df[WORKLOAD]))
    assert [w for w in ws if all(waf(w, "haml") < waf(w, p) - EQUAL for p in others)] == ["dtrs", hc]
    assert waf(tp, "asa") < 1.7 < waf(tp, "double") - EQUAL and min(RUNNABLE, key=lambda p: waf(tp, p)) == "asa"
    assert [w for w in ws if waf(w, "haml") > waf(w, "double") + EQUAL] == [MSR, "postmark", sh]
    assert [w for w in ws if waf(w, "haml") < waf(w, "double") - EQUAL] == ["dtrs", tp, hc]
    assert "**HAML-K beats the simple baselines on two of six workloads at the paper's settings.**" in t
    assert ("above `double` on three of six workloads ("
            + ", ".join(f"{LONG[w]} {f2(waf(w, 'haml'))} against {f2(waf(w, 'double'))}"
                        for w in (MSR, "postmark", sh)) + ")") in t
    assert (f"below it on DTRS (1.00 against {f2(waf('dtrs', 'double'))}), TPC-C (1.70 against "
            f"{f2(waf(tp, 'double'))}; ASA-FTL lower still, {f2(waf(tp, 'asa'))}) and hot/cold (5.00 against "
            f"{f2(waf(hc, 'double'))})") in t
    margins = [min(waf(w, p) for p in others) - waf(w, "haml") for w in ("dtrs", hc)]
    assert {min(RUNNABLE, key=lambda p: waf(w, p)) for w in ws if w not in ("dtrs", hc)} == {"double", "asa"}
    assert (f"On DTRS and hot/cold is HAML-K the lowest of the policies a drive could run, by {fmt(margins[0], 3)} "
            f"and {fmt(margins[1], 3)}; elsewhere `double` or ASA-FTL is.") in t
    # the oracle on DTRS: beaten by HAML-K's 1.0 and ASA-FTL, not by `double` (its mean a hair above the oracle's)
    beat = sorted((p for p in RUNNABLE if waf("dtrs", p) < waf("dtrs", "stream")), key=lambda p: waf("dtrs", p))
    assert beat == ["haml", "asa"]
    assert (f"on DTRS HAML-K and ASA-FTL beat it ({fmt(waf('dtrs', 'haml'), 3)} and {fmt(waf('dtrs', 'asa'), 3)} "
            f"against {fmt(waf('dtrs', 'stream'), 3)})") in t
    # hot/cold the only workload HAML orders well, and there HAML-K's 5.0 is not above `double`
    assert [w for w in ws if cell(df, w, haml.POLICY, "haml", "rank_corr") >= WELL] == [hc]
    assert f"and there it is not above `double` (5.00 against {f2(waf(hc, 'double'))}). - **Every class costs " \
           "open blocks.**" in t
    assert "it still loses" not in t
    # haml-k: WAF rises with K only on the shifting workload, not monotonically; not on MSR and PostMark
    shk = [cell(k, sh, K, n) for n in range(3, 9)]
    assert shk[-1] > shk[0] + EQUAL and not all(b >= a for a, b in zip(shk, shk[1:]))
    assert all(cell(k, w, K, 8) < cell(k, w, K, 3) + EQUAL for w in (MSR, "postmark"))
    assert (f"WAF rises with K ([haml-k](haml-k.md)) on the shifting workload ({f2(shk[0])} at K = 3 to "
            f"{f2(shk[-1])} at K = 8), though not monotonically; it does not on") in t
    assert cell(k, MSR, K, 8, "rank_corr") > cell(k, MSR, K, 3, "rank_corr") + 0.005
    r0, r1 = cell(k, "postmark", K, 3, "rank_corr"), cell(k, "postmark", K, 8, "rank_corr")
    word = "rises to" if r1 > r0 + 0.005 else "falls to" if r1 < r0 - 0.005 else "stays at"
    assert (f"it does not on the MSR excerpt ({f2(cell(k, MSR, K, 3))} at K = 3, {f2(cell(k, MSR, K, 8))} at K = 8, "
            f"where the rank correlation rises to {f2(cell(k, MSR, K, 8, 'rank_corr'))}) and PostMark "
            f"({f2(cell(k, 'postmark', K, 3))} at K = 3, 2.50 at K = 8, where the rank correlation {word} "
            f"{f2(r1)})") in t
    # haml-slice: the smallest slice helps MSR and PostMark, not the shifting workload's 5.6
    assert all(cell(sl, w, S, "36KiB") < cell(sl, w, S, "352KiB") - EQUAL for w in (MSR, "postmark"))
    assert not 5.6 < cell(sl, sh, S, "352KiB") - EQUAL
    assert (f"help the MSR excerpt and PostMark (MSR {f2(cell(sl, MSR, S, '36KiB'))} and PostMark "
            f"{f2(cell(sl, 'postmark', S, '36KiB'))} at 36 KiB against {f2(cell(sl, MSR, S, '352KiB'))} and "
            f"{f2(cell(sl, 'postmark', S, '352KiB'))} at 352 KiB) but not the shifting workload (5.60 at 36 KiB "
            f"against {f2(cell(sl, sh, S, '352KiB'))} at 352 KiB)") in t


def test_a_missing_row_or_table_is_an_error_naming_it(tmp_path):
    df, sens, rows = data()
    gone = df[~((df[WORKLOAD] == "msr_heimdall_rw20_80_105") & (df[haml.POLICY] == "stream"))]
    with pytest.raises(KeyError, match="haml/table.csv has no row for msr_heimdall_rw20_80_105 at .* = stream"):
        haml.findings(gone, sens, rows)
    with pytest.raises(FileNotFoundError, match="haml-k"):
        haml.sensitivity_tables(tmp_path)


def test_the_paired_sentence_names_the_workloads_beyond_the_interval():
    df = runs()
    seed = "config.precondition.seed"
    w = df.pivot_table(index=[WORKLOAD, seed], columns=haml.POLICY, values="ftl.waf")
    ch = (100 * (w["haml"] / w["double"] - 1)).groupby(level=0)   # per drive history, computed here
    n = ch.size()
    assert (n == 3).all()
    half = 4.303 * ch.std() / 3 ** 0.5                              # t(2) x sd / sqrt(3)
    beyond = [x for x in n.index if abs(ch.mean()[x]) > half[x]]
    s = " ".join(haml.paired_summary(df, "haml", "double").split())
    for x in n.index:
        figure = f"{LONG[x]} ({ch.mean()[x]:+.1f} ± {half[x]:.1f} %)"
        assert (figure in s) == (x in beyond), x
    assert s.startswith("Paired by drive history (3 per point), HAML-K's WAF is ")


def test_the_paired_lower_sentence_names_each_policy_below_beyond_the_interval():
    df = runs()
    seed = "config.precondition.seed"
    w = df.pivot_table(index=[WORKLOAD, seed], columns=haml.POLICY, values="ftl.waf")
    s = " ".join(haml.paired_lower(df, "haml", RUNNABLE).split())
    named = 0
    for p in RUNNABLE:
        if p == "haml":
            continue
        ch = (100 * (w["haml"] / w[p] - 1)).groupby(level=0)   # per drive history, computed here
        half = 4.303 * ch.std() / 3 ** 0.5
        for x in ch.mean().index:
            figure = f"{haml_findings.NAME[p]} by {ch.mean()[x]:.1f} ± {half[x]:.1f} %"
            below = ch.mean()[x] - half[x] > 0                   # HAML-K above p beyond the interval
            assert (figure in s) == below, (x, p)
            named += below
    assert named > 0 and s.startswith("Paired by drive history, a policy a drive could run has a WAF below HAML-K's")
    # a frame where HAML-K is lowest on every history: no policy is named
    low = df.copy()
    low.loc[low[haml.POLICY] == "haml", "ftl.waf"] = 0.5
    assert "no policy a drive could run has a WAF below" in haml.paired_lower(low, "haml", RUNNABLE)


def test_response_times_are_grouped_by_their_paired_interval():
    df = runs()
    seed = "config.precondition.seed"
    w = df.assign(rt=df["latency_us.all.mean"].astype(float)).pivot_table(index=[WORKLOAD, seed],
                                                                          columns=haml.POLICY, values="rt")
    ch = (100 * (w["haml"] / w["double"] - 1)).groupby(level=0)   # per drive history, computed here
    half = 4.303 * ch.std() / 3 ** 0.5
    _, sens, rows = data()
    t = " ".join(haml.findings(df, sens, rows).split())
    said = t[t.index("Mean response times, paired by drive history:"):]
    said = said[:said.index(". ")]
    within, beyond = said.split("above it beyond")[0], "".join(said.split("above it beyond")[1:])
    for x in ch.mean().index:
        figure = f"{LONG[x]} ({ch.mean()[x]:+.0f} ± {half[x]:.0f} %)"
        assert figure in said, x
        if ch.mean()[x] - half[x] > 0:
            assert figure in beyond, x
        elif abs(ch.mean()[x]) <= half[x]:
            assert figure in within, x
