"""docs/results/haml*.md's Setup, Scaling and Policies paragraphs follow the
configuration: haml_setup builds them from explore/sweeps/haml.yaml's points
(configs/haml.yaml and the sweep's overrides), docs/params.md's defaults, the
trace files and haml/table.csv, and fails naming a key no source has."""
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from ssdvp_explore.pages import haml_setup

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "docs" / "results"


def words(text: str) -> str:
    return " ".join(text.split())   # the words, whatever the line breaks


def tree(tmp_path, config=None, params=None, sweep=None) -> Path:
    """A copy of the files the text is built from, under tmp_path/repo: configs/haml.yaml (edited by config,
    a function of its parsed YAML), docs/params.md and explore/sweeps/haml.yaml (edited by params and sweep,
    functions of their text), and traces/ (a link to the repository's)."""
    root = tmp_path / "repo"
    for d in ("configs", "docs", "explore/sweeps"):
        (root / d).mkdir(parents=True)
    cfg = yaml.safe_load((REPO / "configs" / "haml.yaml").read_text())
    if config:
        config(cfg)
    (root / "configs" / "haml.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    text = (REPO / "docs" / "params.md").read_text()
    (root / "docs" / "params.md").write_text(params(text) if params else text)
    text = (REPO / haml_setup.SWEEP).read_text()
    (root / haml_setup.SWEEP).write_text(sweep(text) if sweep else text)
    (root / "traces").symlink_to(REPO / "traces")
    return root


def setup_text(root: Path, data_dir: Path = RESULTS) -> str:
    return words(haml_setup.text(root, data_dir=data_dir))


def drop_param(key: str):
    def edit(text: str) -> str:
        out = re.sub(rf"^\| `{re.escape(key)}` \|.*\n", "", text, flags=re.M)
        assert out != text, key
        return out
    return edit


def test_committed_files_give_the_committed_pages():
    text = haml_setup.text(REPO, data_dir=RESULTS)
    for page in ("haml", "haml-k", "haml-slice", "haml-period", "haml-gc"):
        md = (RESULTS / f"{page}.md").read_text()
        assert "\n\n".join(text.split("\n\n")[:3 if page == "haml" else 2]) in md, page
    t = words(text)
    assert "1 GiB of flash (4 channels x 2 dies x 256 blocks x 64 pages x 8 KiB), 896 MiB exported (12.5 % " \
           "spare), HAML-SSD's timing (20 us / 200 us / 2 ms), greedy GC below 16 free blocks." in t
    assert "(1/292.6 in capacity): slices of 352 KiB give 2,607 slices (100 MB slices give 2,560 on 256 GB)" in t
    # T against each replay, from the trace files: TPC-C's 40 passes of 0.14 s at x10 take 55 s, T is 2.2 s
    assert "1/24 on the MSR excerpt and DTRS, 1/25 on PostMark and the TPC-C sample and 1/20 on the " \
           "synthetic workloads" in t
    assert "MSR excerpt 20 passes at 20x speed (timed half: 557 MiB written); DTRS 4 passes at 100x (1.4 GiB); " \
           "PostMark one pass (2.1 GiB); TPC-C sample 40 passes at a tenth of its recorded rate (625 MiB)." in t
    assert "800k requests at 5k IOPS, 20 % reads, 80 % of requests" in t
    assert "every 50k requests (10 s)" in t
    assert "a mean interval of at most T/4); `asa` is ASA-FTL's K-Means on update frequency only with K = 3; " \
           "`haml` is HAML-SSD's 2-D K-Means with K = 6" in t
    assert "spread by more than 16. Three runs per point (seeds)." in t   # the sweep's seeds: [1, 2, 3]
    assert "{" not in t and "}" not in t


def test_drive_follows_the_config(tmp_path):
    def edit(c):
        c["flash"]["page_size"] = "16KiB"
        c["ftl"]["gc"]["threshold_blocks"] = 32
        c["ftl"]["hot"]["slice_size"] = "704KiB"
        c["ftl"]["wear"]["threshold"] = 40
    t = setup_text(tree(tmp_path, config=edit))
    assert "2 GiB of flash (4 channels x 2 dies x 256 blocks x 64 pages x 16 KiB), 896 MiB exported (56.2 % " \
           "spare)" in t
    assert "greedy GC below 32 free blocks" in t
    assert "slices of 704 KiB give 1,304 slices" in t
    assert "spread by more than 40." in t
    assert "8 KiB" not in t and "below 16 free" not in t


def test_default_comes_from_params_md(tmp_path):
    """configs/haml.yaml sets no flash timing: the text quotes docs/params.md's defaults, and calls the timing
    HAML-SSD's only while it is the paper's."""
    def slower(text):
        out = text.replace("| `flash.timing.program` | time | `200us` |", "| `flash.timing.program` | time | `300us` |")
        assert out != text
        return out
    t = setup_text(tree(tmp_path, params=slower))
    assert ", timing (20 us / 300 us / 2 ms), greedy GC" in t
    assert "HAML-SSD's timing" not in t


def test_workloads_follow_the_sweep(tmp_path):
    def edit(text):
        out = text.replace("workload.loops: 20, workload.time_scale: 0.05", "workload.loops: 10, "
                           "workload.time_scale: 0.1").replace("workload.synthetic.iops: 5000",
                                                                "workload.synthetic.iops: 4000")
        assert out != text
        return out
    t = setup_text(tree(tmp_path, sweep=edit))
    assert "MSR excerpt 10 passes at 10x speed (timed half:" in t
    # 800k requests at 4k IOPS take 200 s: T = 8 s is 1/25 of it, as of PostMark's replay
    assert "800k requests at 4k IOPS" in t and "every 50k requests (12.5 s)" in t
    assert "1/25 on PostMark, the TPC-C sample and the synthetic workloads" in t


def test_hotis_threshold_follows_the_sweep(tmp_path):
    def edit(text):
        return text.replace("ftl.hot.hotis.max_interval: 2500ms", "ftl.hot.hotis.max_interval: 5000ms")
    t = setup_text(tree(tmp_path, sweep=edit))
    assert "a mean interval of at most T/4 and T/2)" in t


def test_missing_key_is_an_error_naming_it(tmp_path):
    def edit(c):
        del c["ftl"]["gc"]["threshold_blocks"]
    root = tree(tmp_path, config=edit, params=drop_param("ftl.gc.threshold_blocks"))
    with pytest.raises(haml_setup.SetupError, match=r"ftl\.gc\.threshold_blocks: set in neither "
                       r"configs/haml\.yaml nor explore/sweeps/haml\.yaml, and docs/params\.md has no default"):
        haml_setup.text(root, data_dir=RESULTS)
    # with the key in the config again, the same tree renders (the error was the key's)
    root2 = tree(tmp_path / "2", params=drop_param("ftl.gc.threshold_blocks"))
    assert "below 16 free blocks" in setup_text(root2)


def test_missing_column_is_an_error_naming_it(tmp_path):
    df = pd.read_csv(RESULTS / "haml" / "table.csv")
    (tmp_path / "haml").mkdir()
    df.drop(columns=["placement.classes"]).to_csv(tmp_path / "haml" / "table.csv", index=False)
    with pytest.raises(haml_setup.SetupError, match=r"table\.csv has no column placement\.classes"):
        haml_setup.text(REPO, data_dir=tmp_path)
