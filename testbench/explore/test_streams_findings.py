"""scripts/streams_experiment.py's findings (docs/results/streams.md): every figure the hand-written text quotes
is filled in from the rows, and a claim the rows no longer support stops the rendering."""
import copy
import importlib.util
import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("streams_experiment", REPO / "scripts" / "streams_experiment.py")
se = importlib.util.module_from_spec(spec)
spec.loader.exec_module(se)
DATA = REPO / "docs" / "results" / "streams"


def rows():
    """The committed rows, keyed as the page keys them (small drive, larger drive)."""
    small, large = (json.loads((DATA / f).read_text()) for f in ("rows.json", "large_rows.json"))
    return se.points(small), se.points(large)


def test_figures_are_filled_from_the_rows():
    small = {("w", "none"): {"waf": 2.0, "w_p9999": 20.0}, ("w", "a"): {"waf": 2.2, "w_p9999": 4440.0},
             ("w", "b"): {"waf": 1.9, "w_p9999": 900.0}, ("w", "random"): {"waf": 2.5}}
    fill = se.fill_figures
    assert fill("{vs:w|a}", small, {}) == "+10.0 %"
    assert fill("{vs:w|b|a}", small, {}) == "-13.6 %"  # against a, not none
    assert fill("{vs:w|b,a}", small, {}) == "-5.0 to +10.0 %"  # several: lowest to highest
    assert fill("{rec:w|a} of {cost:w}", small, {}) == "15.0 of 25.0"
    assert fill("{p:w|a} against {p:w|none}, {p:w|a,b}", small, {}) == "4.4 ms against 20 us, 900 us to 4.4 ms"
    assert fill("{Lwaf:w|none}", {}, small) == "2.000"  # L: the larger drive's rows
    with pytest.raises(SystemExit, match=r"\{waf:x\|none\}: not in the data"):
        fill("{waf:x|none}", small, {})


def test_the_committed_findings_have_every_figure_filled():
    text = se.findings(*rows())
    left = re.findall(r"\{L?(?:" + "|".join(se.FIGURES) + r"):[^{}]*\}", text)
    assert left == [] and "{{FLOOR}}" not in text


def test_a_claim_the_rows_contradict_stops_the_rendering():
    small, large = rows()
    small = copy.deepcopy(small)
    none = {r.get("seed", 1): r["waf"] for r in se.runs(small[("mysql", "none")])}
    for r in se.runs(small[("mysql", "oracle")]):  # the oracle no longer beats none, on any seed
        r["waf"] = none[r.get("seed", 1)] * 1.01
    with pytest.raises(SystemExit, match="the oracle's streams beat none"):
        se.findings(small, large)


def test_a_claim_whose_rows_are_missing_is_named():
    small, large = rows()
    del large[("mysql", "random")]
    with pytest.raises(SystemExit, match="larger drive: random streams cost less.*not in the data"):
        se.findings(small, large)


def seeded(**points):
    """Rows of several seeds: points[(name)] = [waf per seed]; name 'w__p' is (workload w, placement p)."""
    rows = []
    for name, wafs in points.items():
        w, p = name.split("__")
        rows += [{"workload": w, "policy": p, "seed": k + 1, "waf": v, "w_p9999": 10.0 * v}
                 for k, v in enumerate(wafs)]
    return se.points(rows)


def test_a_point_is_the_mean_of_its_seeds_and_a_change_is_paired_by_seed():
    d = seeded(w__none=[2.0, 4.0, 3.0], w__a=[2.2, 4.4, 3.3])  # +10 % on every seed, means 3.0 and 3.3
    assert d[("w", "a")]["waf"] == pytest.approx(3.3) and len(d[("w", "a")]["runs"]) == 3
    assert se.ci(d[("w", "none")], "waf") == "3.000 ± 2.484"  # t(2) 4.303 x sd 1 / sqrt(3)
    assert se.chg(d[("w", "a")], d[("w", "none")]) == "+10.0 ± 0.0 %"  # paired: no spread although the means vary
    assert se.fill_figures("{vs:w|a}", d, {}) == "+10.0 ± 0.0 %"
    d = seeded(w__none=[2.0, 2.0, 2.0], w__a=[2.2, 1.9, 2.0])
    assert se.fill_figures("{vs:w|a}", d, {}) == "+1.7 ± 19.0 %"  # +10, -5, 0: sd 7.64
    assert se.fill_figures("{vs:w|a,none|none}", d, {}) == "+0.0 to +1.7 %"  # several: their means, no interval
    assert not se._above(d, "w", "a", "none") and not se._below(d, "w", "a", "none")


def test_a_direction_claim_needs_the_paired_interval_beyond_zero():
    small, large = rows()
    small = copy.deepcopy(small)
    # the oracle's mean stays below none's, but one seed of three above it: the interval spans 0
    base = small[("mysql", "none")]
    small[("mysql", "oracle")] = dict(small[("mysql", "oracle")], runs=[
        {"seed": 1, "waf": base["waf"] * 0.80}, {"seed": 2, "waf": base["waf"] * 0.95}, {"seed": 3, "waf": base["waf"] * 1.02}])
    small[("mysql", "none")] = dict(base, runs=[dict(base, seed=k) for k in (1, 2, 3)])
    with pytest.raises(SystemExit, match="the oracle's streams beat none"):
        se.findings(small, large)


def test_tail_ratios_are_geometric_means_with_a_log_scale_interval():
    d = seeded(w__none=[1.0, 1.0, 1.0], w__a=[10.0, 100.0, 1000.0])  # w_p9999 = 10 x waf: ratios x10, x100, x1000
    # log10 ratios 1, 2, 3: mean 2, sd 1, half-width 4.303 / sqrt(3) = 2.484 decades
    assert se.ratio(d[("w", "a")], d[("w", "none")]) == "x100 (x0.33 to x30,503)"
    assert se._above_each(d, "w", "a", "none", "w_p9999") and not se._above(d, "w", "a", "none", "w_p9999")
    one = seeded(w__none=[2.0], w__a=[5.0])
    assert se.ratio(one[("w", "a")], one[("w", "none")]) == "x2.50"


def test_the_page_names_the_clocks_its_runs_measured():
    """The capture/predict/train sentence follows the reports' `clocks`: a report without them (the committed
    data's builds) timed all three with the wall clock; runs from builds that disagree are said to."""
    raw = json.loads((DATA / "rows.json").read_text())
    with_pred = [x for r in raw for x in se.runs(r) if x.get("pred")]
    assert with_pred, "the committed rows hold no predictor reports"
    if all("clocks" not in x["pred"] for x in with_pred):
        assert se.predictor_clocks(raw).startswith("They are wall-clock time")
    cpu = {"capture": "steady", "predict": "thread_cpu", "train": "thread_cpu"}
    for x in with_pred:
        x["pred"]["clocks"] = dict(cpu)
    assert se.predictor_clocks(raw).startswith("Train and predict are CPU time of the threads that ran them")
    del with_pred[0]["pred"]["clocks"]
    mixed = se.predictor_clocks(raw)
    assert mixed.startswith("Their clocks differ between runs")
    assert "none named" in mixed and "predict thread_cpu" in mixed
