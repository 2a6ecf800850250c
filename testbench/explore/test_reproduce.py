"""reproduce: a tiny result page regenerated into a temp dir, and the CLI."""
from pathlib import Path

import pandas as pd
import pytest

from conftest import runs
from ssdvp_explore import cli
from ssdvp_explore.pages import Page, pages, register, standard_body, unregister
from ssdvp_explore.reproduce import reproduce
from ssdvp_explore.runner import RunnerError


@pytest.fixture
def tiny_page(make_sweep):
    sw = make_sweep("""
        name: tiny
        base: configs/small.yaml
        grid: {ftl.gc.policy: [greedy, fifo]}
        seeds: [1, 2]
    """, name="tiny.yaml")
    page = register(Page(name="tiny-test", title="Tiny", sweep=str(sw), baseline="greedy",
                         render=lambda ctx: standard_body(ctx, intro="A tiny page.")))
    yield page
    unregister("tiny-test")


def test_reproduce_tiny_page(tiny_page, proj, fake_bin, tmp_path, run_log):
    out = tmp_path / "docs" / "results"
    (out / "tiny-test").mkdir(parents=True)
    (out / "tiny-test" / "stale.png").write_text("old")
    [(md, rep)] = reproduce(["tiny-test"], fake_bin, out_dir=out, root=proj, jobs=2, progress=False,
                            log=lambda m: None)
    assert md == out / "tiny-test.md" and rep.ok and runs(run_log) == 4
    text = md.read_text()
    assert text.startswith("# Tiny") and "A tiny page." in text
    assert "explore/ssdvp-explore reproduce tiny-test" in text
    assert "| ftl.gc.policy | runs | WAF |" in text
    for fig in ("waf_erases", "response_time", "latency_cdf", "bandwidth"):
        assert f"](tiny-test/{fig}.png)" in text and f"](tiny-test/{fig}.svg)" in text
        assert (out / "tiny-test" / f"{fig}.png").is_file() and (out / "tiny-test" / f"{fig}.svg").is_file()
    assert not (out / "tiny-test" / "stale.png").exists()
    t = pd.read_csv(out / "tiny-test" / "table.csv")
    assert len(t) == 4 and "ftl.waf" in t
    # again: everything is cached, the page is the same but for nothing
    reproduce(["tiny-test"], fake_bin, out_dir=out, root=proj, progress=False, log=lambda m: None)
    assert runs(run_log) == 4 and _undated(md.read_text()) == _undated(text)
    # the page is a function of its folder: rendering it from the data alone gives it back
    from ssdvp_explore.render import render
    again = render("tiny-test", data_dir=out, out_dir=tmp_path / "rendered", root=proj)
    assert again.read_text() == md.read_text()


def _undated(text: str) -> str:
    """A page without its provenance's date, load and wall-time lines (they change at every run)."""
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith(("- date:", "- wall time:")))


def test_platform_page_is_registered():
    p = pages()["platform"]
    assert p.sweep == "explore/sweeps/platform.yaml"
    from ssdvp_explore import REPO_ROOT
    from ssdvp_explore.sweep import load_sweep
    s = load_sweep(REPO_ROOT / p.sweep, root=REPO_ROOT) if (REPO_ROOT / "configs/small.yaml").exists() else None
    if s is not None:
        assert s.axis_keys == ["workload.synthetic.pattern", "ftl.gc.policy", "workload.synthetic.seed"]


def test_cli_sweep_table_plot_list(make_sweep, proj, fake_bin, tmp_path, capsys, run_log):
    sw = make_sweep("""
        name: c
        base: configs/small.yaml
        grid: {ftl.gc.policy: [greedy, bogus]}
    """)
    args = [str(sw), "--ssdvp", str(fake_bin)]
    assert cli.main(["sweep", *args, "-j", "2", "--no-progress"]) == 1      # a point failed
    err = capsys.readouterr().err
    assert "1 failed" in err and "FAILED" in err and "unknown policy 'bogus'" in err
    assert (proj / "results" / "c" / "table.csv").is_file()
    assert cli.main(["table", *args, "-o", str(tmp_path / "t.csv")]) == 0
    assert len(pd.read_csv(tmp_path / "t.csv")) == 2
    assert cli.main(["list", *args]) == 0
    out = capsys.readouterr().out
    assert "cached" in out and "failed" in out
    assert cli.main(["plot", *args, "-o", str(tmp_path / "figs")]) == 0
    assert (tmp_path / "figs" / "waf_erases.svg").is_file()
    assert cli.main(["plot", "--table", str(tmp_path / "t.csv"), "-o", str(tmp_path / "f2")]) == 0
    assert runs(run_log) == 2
    # a bad sweep file: exit 2 with the file and key named
    bad = make_sweep("name: b\nbase: configs/small.yaml\ngird: {}\n", name="bad.yaml")
    assert cli.main(["sweep", str(bad), "--ssdvp", str(fake_bin)]) == 2
    assert "bad.yaml: unknown key(s) gird" in capsys.readouterr().err
    assert cli.main(["reproduce", "--list"]) == 0
    assert "platform" in capsys.readouterr().out


def test_reproduce_refuses_a_dirty_tree_unless_told(tiny_page, proj, tmp_path, run_log):
    import subprocess
    import sys

    def git(*a):
        subprocess.run(["git", "-C", str(proj), "-c", "user.name=t", "-c", "user.email=t@t", *a], check=True,
                       capture_output=True)
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "init")
    head = subprocess.run(["git", "-C", str(proj), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()

    def binary(version):
        b = tmp_path / f"ssdvp-{version}"
        b.write_text(f'#!/bin/sh\n[ "$1" = --version ] && {{ echo "ssdvp 0.1.0+{version}"; exit 0; }}\n'
                     f'exec "{sys.executable}" "{Path(__file__).resolve().parent / "fake_ssdvp.py"}" "$@"\n')
        b.chmod(0o755)
        return b
    out = proj / "docs" / "results"
    kw = dict(out_dir=out, root=proj, jobs=2, progress=False, log=lambda m: None)
    good = binary(head[:12])
    with pytest.raises(RunnerError, match="built from a tree with uncommitted changes.*--allow-dirty"):
        reproduce(["tiny-test"], binary(head[:12] + "-dirty"), **kw)
    with pytest.raises(RunnerError, match="built from commit 0123456789ab"):
        reproduce(["tiny-test"], binary("0123456789ab"), **kw)
    (proj / "configs" / "small.yaml").write_text((proj / "configs" / "small.yaml").read_text() + "# edit\n")
    with pytest.raises(RunnerError, match=r"uncommitted changes \(configs/small.yaml\)"):
        reproduce(["tiny-test"], good, **kw)
    assert runs(run_log) == 0
    [(md, _)] = reproduce(["tiny-test"], good, allow_dirty=True, **kw)
    assert f"- source tree: commit {head}\n" in md.read_text()
    assert "**not reproducible as is**: the source tree had uncommitted changes (configs/small.yaml)" in md.read_text()
    git("checkout", "configs/small.yaml")
    [(md, _)] = reproduce(["tiny-test"], good, **kw)   # the page just written does not make the tree dirty
    text = md.read_text()
    assert f"- source tree: commit {head}\n" in text and f"ssdvp: `ssdvp 0.1.0+{head[:12]}`, binary sha256 `" in text
    assert "not reproducible" not in text


def test_reproduce_runs_the_pages_further_sweeps_and_keeps_a_folder(make_sweep, proj, fake_bin, tmp_path, run_log):
    """Page.then: sweeps run after the main one, each table written as <name>.csv and handed to the renderer; a
    kept folder (Page.keep) survives the page folder's renewal."""
    main = make_sweep("""
        name: first
        base: configs/small.yaml
        grid: {ftl.gc.policy: [greedy, fifo]}
    """, name="first.yaml")
    then = make_sweep("""
        name: second
        base: configs/small.yaml
        grid: {ftl.gc.policy: [random]}
        seeds: [1, 2, 3]
    """, name="second.yaml")
    seen = {}

    def body(ctx):
        seen.update({k: len(v) for k, v in ctx.extra["tables"].items()})
        return standard_body(ctx, intro="Two sweeps.")

    register(Page(name="then-test", title="Then", sweep=str(main), render=body, keep=("models",),
                  then=(str(then),)))
    try:
        out = tmp_path / "docs" / "results"
        (out / "then-test" / "models").mkdir(parents=True)
        (out / "then-test" / "models" / "a.model").write_text("weights\n")
        [(md, rep)] = reproduce(["then-test"], fake_bin, out_dir=out, root=proj, jobs=2, progress=False,
                                log=lambda m: None)
        assert runs(run_log) == 5 and seen == {"second": 3}
        assert len(pd.read_csv(out / "then-test" / "second.csv")) == 3
        assert (out / "then-test" / "models" / "a.model").read_text() == "weights\n"
        seen.clear()
        from ssdvp_explore.render import render
        again = render("then-test", data_dir=out, out_dir=tmp_path / "rendered", root=proj)
        assert seen == {"second": 3} and again.read_text() == md.read_text()
    finally:
        unregister("then-test")
