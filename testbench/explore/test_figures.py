"""Figure rules: no silent averaging in `plot`, log axes over two decades, round ticks, negative bars."""
import sys
from pathlib import Path

import pandas as pd

from ssdvp_explore import cli
from ssdvp_explore.plots import _plain, draw_metric_panels, merged_keys, plt

ROOT = Path(__file__).resolve().parents[2]


def _table(tmp_path):
    rows = [{"status": "ok", "point": f"p{i}", "config.workload.source": "synthetic",
             "config.ftl.gc.policy": pol, "config.ftl.gc.threshold_blocks": th, "config.workload.synthetic.seed": s,
             "ftl.waf": w, "ftl.erases": 100 * w}
            for i, (pol, th, s, w) in enumerate([("greedy", 8, 1, 2.0), ("greedy", 16, 1, 3.0),
                                                  ("fifo", 8, 1, 2.5), ("fifo", 16, 1, 4.0)])]
    p = tmp_path / "t.csv"
    pd.DataFrame(rows).to_csv(p, index=False)
    return p


def test_plot_names_the_keys_it_would_average(tmp_path, capsys):
    t = _table(tmp_path)
    assert merged_keys(pd.read_csv(t), "config.ftl.gc.policy") == ["config.ftl.gc.threshold_blocks"]
    assert cli.main(["plot", "--table", str(t), "-o", str(tmp_path / "f")]) == 2
    assert "config.ftl.gc.threshold_blocks" in capsys.readouterr().err
    assert cli.main(["plot", "--table", str(t), "-o", str(tmp_path / "f"), "--facet",
                     "config.ftl.gc.threshold_blocks"]) == 0
    assert (tmp_path / "f" / "ftl.gc.threshold_blocks=8" / "waf_erases.png").is_file()
    assert cli.main(["plot", "--table", str(t), "-o", str(tmp_path / "g"), "--average"]) == 0


def test_log_axis_over_two_decades_and_plain_ticks():
    df = pd.DataFrame({"status": "ok", "config.workload.source": "synthetic", "config.ftl.gc.policy": ["a", "b"],
                       "ftl.waf": [20.0, 150000.0]})
    fig = draw_metric_panels(df, [("ftl.waf", "WAF")])
    assert fig.axes[0].get_yscale() == "log"
    plt.close(fig)
    assert _plain(10800.0) == "10,800" and _plain(0.25) == "0.25" and _plain(0) == "0"


def test_svg_bars_draw_negative_values(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    from streams_experiment import plain_svg_bars, svg_bars
    vals = {("w", "x"): 0.5, ("w", "y"): -0.25}
    out = tmp_path / "b.svg"
    plain_svg_bars(out, "t", ["w"], ["x", "y"], vals, "corr")   # without matplotlib
    heights = [float(h) for h in __import__("re").findall(r'<rect x="[^"]+" y="[^"]+" width="[^"]+" height="([^"]+)"',
                                                          out.read_text())]
    assert len([h for h in heights if h > 0]) >= 2   # both bars drawn (plus legend swatches)
    svg_bars(tmp_path / "m.svg", "t", ["w"], ["x", "y"], vals, "corr")   # with it: PNG and SVG
    assert (tmp_path / "m.png").is_file() and (tmp_path / "m.svg").is_file()


def test_overview_fills_in_from_the_seed_pages_data(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    import overview
    assert "no cell is measured" in overview.render(tmp_path)
    (tmp_path / "techniques").mkdir()
    (tmp_path / "techniques" / "overview.csv").write_text(
        "seed,technique,what,workload,page,runs,waf,waf_ci,waf_change_pct,waf_change_pct_ci\n"
        "003,haml,x,rocksdb,techniques,3,1.8,0.1,-10,2\n"
        "-,double,x,rocksdb,techniques,3,2.0,0.05,0,0\n"
        "-,oracle,x,rocksdb,techniques,3,1.5,0,-25,1\n")
    text = overview.render(tmp_path)
    assert "| `haml` | 1.800 ± 0.100 | -10.0 ± 2.0 | n/m |" in text
    assert "\n| `lstm` |" not in text and "| 002 | `lstm` |" in text and "techniques.md: not yet measured" in text
    # the answer names the lowest WAF a drive can run beyond the noise (the oracle is a reference, not a technique)
    assert "`haml`, WAF -10.0 ± 2.0 %; at the price" in text and "the oracle (placement by real death time) -25" in text
    assert "![WAF change against the baseline (%)](overview/waf_change_pct.png)" in text
    assert (tmp_path / "overview" / "waf_change_pct.svg").is_file()


def test_plain_svg_bars_draw_whiskers_of_either_kind(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    from streams_experiment import plain_svg_bars
    out = tmp_path / "e.svg"
    plain_svg_bars(out, "t", ["w"], ["x", "y"], {("w", "x"): 2.0, ("w", "y"): 3.0}, "u",
                   {("w", "x"): 0.5, ("w", "y"): (1.0, 6.0)})  # a half-width, and (low, high) ends
    lines = __import__("re").findall(r'<line x1="([^"]+)" y1="([^"]+)" x2="([^"]+)" y2="([^"]+)" stroke="black"/>',
                                     out.read_text())
    spans = sorted(float(a) - float(b) for x1, a, x2, b in lines if x1 == x2 and x1 != "70")  # not the axes
    assert len(spans) == 2 and spans[1] / spans[0] == __import__("pytest").approx(5.0 / 1.0, rel=0.01)
