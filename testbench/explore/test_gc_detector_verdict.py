"""The gc-detector page's held-out comparison: which runs are scored and when the tree counts as ahead."""
import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("gc_detector_page", REPO / "scripts" / "gc-detector.py")
gd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gd)


def run(share, tree, stump, always=0.5, rows=1000):
    return {"rows": rows, "share": share, "tree": tree, "stump": stump, "always": always, "nodev": 0.0}


def test_a_run_with_almost_no_gc_is_not_scored():
    # one GC sample in 1,000 (fileserver under `threshold`): every F1 is about 0, nothing to compare
    assert gd.judge(run(0.001, 0.0, 0.0, always=0.002)) is None
    assert gd.judge(run(0.999, 0.9, 0.8)) is None  # nor one with almost no idle samples
    assert gd.judge(run(0.02, 0.5, 0.1)) is not None  # 20 of each


def test_a_lead_within_twice_the_standard_error_is_no_win():
    # 780 GC samples: a 0.003 lead over a 0.98 threshold rule is well inside the error, a 0.05 one outside it
    margin, half, beats = gd.judge(run(0.78, 0.983, 0.980))
    assert abs(margin - 0.003) < 1e-12 and 0.01 < half < 0.02 and not beats
    assert gd.judge(run(0.78, 0.99, 0.94))[2]
    # the better of the two trivial classifiers is the one to beat
    assert not gd.judge(run(0.78, 0.99, 0.5, always=0.995))[2]


def test_the_sentence_counts_only_scored_runs():
    clf = {"fio": run(0.78, 0.99, 0.94), "fileserver": run(0.001, 0.0, 0.0), "varmail": run(0.3, 0.6, 0.7)}
    beaten, scored, text = gd.beats_line(clf)
    assert (beaten, scored) == (1, 2)
    assert "on 1 of 2 held-out runs" in text and "fileserver has fewer GC or idle samples" in text
    assert "fio +0.050" in text and "varmail -0.100" in text
