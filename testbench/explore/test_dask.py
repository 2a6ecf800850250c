"""The same sweep on a local multi-process Dask cluster gives the same table."""
import pandas as pd
import pytest

from ssdvp_explore.runner import run_sweep
from ssdvp_explore.sweep import load_sweep
from ssdvp_explore.table import build_table, deterministic

distributed = pytest.importorskip("distributed")


def test_dask_cluster_same_table_as_local_pool(make_sweep, fake_bin, tmp_path):
    s = load_sweep(make_sweep("""
        name: d
        base: configs/small.yaml
        grid: {ftl.gc.policy: [greedy, fifo, bogus]}
        traces: [traces/a.ascii, traces/b.ascii]
    """))
    quiet = dict(progress=False, log=lambda m: None)
    local = run_sweep(s, fake_bin, results=tmp_path / "local", jobs=2, **quiet)
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None, silence_logs=40) as cluster:
        rep = run_sweep(s, fake_bin, results=tmp_path / "dask", scheduler=cluster.scheduler_address, **quiet)
        assert rep.ran == 6 and len(rep.failures) == 2
        hosts_seen = {(tmp_path / "dask" / p.hash / "status.json").read_text() for p in rep.points}
        assert len(hosts_seen) == 6
        again = run_sweep(s, fake_bin, results=tmp_path / "dask", scheduler=cluster.scheduler_address, **quiet)
        assert again.cached == 4 and again.ran == 2
    a = build_table(s, local.points, local.results)
    b = build_table(s, rep.points, rep.results)
    assert len(a) == 6
    pd.testing.assert_frame_equal(deterministic(a), deterministic(b))


def test_scheduler_local_starts_and_closes_a_cluster(make_sweep, fake_bin, tmp_path):
    from ssdvp_explore.runner import RunnerError, parse_local_scheduler
    assert parse_local_scheduler("local") == 0 and parse_local_scheduler("local:3") == 3
    assert parse_local_scheduler("tcp://h:8786") is None
    with pytest.raises(RunnerError, match="local:N"):
        parse_local_scheduler("local:x")
    s = load_sweep(make_sweep("""
        name: l
        base: configs/small.yaml
        grid: {ftl.gc.policy: [greedy, fifo]}
    """))
    lines = []
    rep = run_sweep(s, fake_bin, results=tmp_path / "l", scheduler="local:2", progress=False, log=lines.append)
    assert rep.ran == 2 and rep.ok
    assert "a local Dask cluster of 2 workers" in lines[0]
    import multiprocessing
    assert not multiprocessing.active_children()   # the cluster's worker processes are gone
