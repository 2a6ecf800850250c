"""The page test itself: it fails on a page without a row, a hand edit, a missing figure, dirty provenance."""
import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import results_pages as rp  # noqa: E402


@pytest.fixture
def results(tmp_path, monkeypatch):
    d = tmp_path / "docs" / "results"
    d.mkdir(parents=True)
    shutil.copy(ROOT / "docs/results/platform.md", d)
    shutil.copytree(ROOT / "docs/results/platform", d / "platform")
    shutil.copy(ROOT / "docs/results/haml.md", d)   # platform.md links it (only platform is checked below)
    shutil.copytree(ROOT / "docs/firmware", tmp_path / "docs" / "firmware")
    monkeypatch.setattr(rp, "RESULTS", d)
    monkeypatch.setattr(rp, "ROWS", [r for r in rp.ROWS if r.name in ("platform", "haml")])
    return d


def test_committed_page_passes(results):
    assert rp.check(only=["platform"]) == 0


def test_unregistered_page_fails(results, capsys):
    (results / "new-page.md").write_text("# A page nobody renders\n")
    assert rp.check(only=["platform"]) == 1
    assert "new-page.md: no row in scripts/results_pages.py" in capsys.readouterr().err


def test_hand_edit_fails(results, capsys):
    md = results / "platform.md"
    md.write_text(md.read_text().replace("| synthetic uniform | greedy |", "| synthetic uniform | greedy (edited) |"))
    assert rp.check(only=["platform"]) == 1
    assert "platform.md differs from its rendering" in capsys.readouterr().err


def test_missing_figure_fails(results, capsys):
    (results / "platform" / "waf_erases.png").unlink()
    assert rp.check(only=["platform"]) == 1
    assert "waf_erases.png, which does not exist" in capsys.readouterr().err


def test_data_from_a_dirty_tree_fails(results, capsys):
    p = results / "platform" / "provenance.json"
    prov = json.loads(p.read_text())
    prov["dirty"] = ["firmware/ftl/gc.c"]
    p.write_text(json.dumps(prov))
    md = results / "platform.md"   # the page says so (re-rendered), and the check still fails
    from ssdvp_explore.render import render
    render("platform", data_dir=results, out_dir=results, root=ROOT)
    assert "not reproducible as is**: the source tree had uncommitted changes (firmware/ftl/gc.c)" in md.read_text()
    assert rp.check(only=["platform"]) == 1
    assert "its data is not reproducible as is" in capsys.readouterr().err


def test_a_part_made_by_another_command_is_checked_too(results, capsys):
    # a page's part with its own <part>_provenance.json (haml's paper-scale points): a dirty build fails the check
    (results / "platform" / "part_provenance.json").write_text(json.dumps(
        {"commit": "abc1234def56", "dirty": [], "ssdvp": "ssdvp 0.1.0+abc1234def56-dirty"}))
    assert len(rp.provenances("platform")) == 2
    assert rp.check(only=["platform"]) == 1
    assert "built from a tree with uncommitted changes (ssdvp 0.1.0+abc1234def56-dirty)" in capsys.readouterr().err
