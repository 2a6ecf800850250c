"""Sweep files: schema, grid expansion, point hashing."""
import pytest

from ssdvp_explore.sweep import SweepError, load_sweep


def test_grid_expansion_order_and_axes(make_sweep, proj):
    s = load_sweep(make_sweep("""
        name: g
        base: configs/small.yaml
        set: {workload.synthetic.requests: 100}
        grid:
          ftl.gc.policy: [greedy, fifo, random]
          ftl.gc.threshold: [0.05, 0.1]
        traces: [traces/a.ascii, traces/b.ascii]
        seeds: [1, 2]
    """))
    assert s.root == proj
    assert s.base_arg == "configs/small.yaml"
    assert s.axis_keys == ["ftl.gc.policy", "ftl.gc.threshold", "workload.trace", "workload.synthetic.seed"]
    pts = s.points("v1")
    assert len(pts) == 3 * 2 * 2 * 2
    assert [p.index for p in pts] == list(range(24))
    first, last = pts[0].overrides, pts[-1].overrides
    assert first == {"workload.synthetic.requests": "100", "ftl.gc.policy": "greedy", "ftl.gc.threshold": "0.05",
                     "workload.trace": "traces/a.ascii", "workload.synthetic.seed": "1"}
    assert last["ftl.gc.policy"] == "random" and last["workload.synthetic.seed"] == "2"
    # the seed varies fastest (cartesian product in declaration order)
    assert pts[1].overrides["workload.synthetic.seed"] == "2"
    assert len({p.hash for p in pts}) == 24
    # merged config = base flattened + overrides, strings
    assert pts[0].config["ftl.gc.policy"] == "greedy" and pts[0].config["workload.synthetic.requests"] == "100"
    assert set(pts[0].files) == {"traces/a.ascii"}


def test_cases_zip_exclude_and_keys(make_sweep):
    s = load_sweep(make_sweep("""
        name: c
        base: configs/small.yaml
        cases:
          - {ftl.gc.policy: greedy, ftl.gc.threshold: 0.05}
          - {ftl: {gc: {policy: fifo, threshold: 0.1}}}
        zip:
          workload.synthetic.requests: [10, 20]
          workload.synthetic.pattern: [uniform, zipf]
        seeds: [7, 8]
        seed_key: sim.seed
        exclude:
          - {ftl.gc.policy: fifo, sim.seed: 8}
    """))
    pts = s.points("v")
    assert len(pts) == 2 * 2 * 2 - 2
    assert all(not (p.overrides["ftl.gc.policy"] == "fifo" and p.overrides["sim.seed"] == "8") for p in pts)
    pairs = {(p.overrides["workload.synthetic.requests"], p.overrides["workload.synthetic.pattern"]) for p in pts}
    assert pairs == {("10", "uniform"), ("20", "zipf")}


def test_no_axes_is_one_point_and_bools(make_sweep):
    s = load_sweep(make_sweep("""
        name: one
        base: configs/small.yaml
        set: {a.flag: true, b.none: null}
    """))
    [p] = s.points("v")
    assert p.overrides == {"a.flag": "true", "b.none": ""}


@pytest.mark.parametrize("body, msg", [
    ("name: x\nbase: configs/small.yaml\ngrdi: {a: [1]}\n", "unknown key(s) grdi"),
    ("name: x\n", "missing required key 'base'"),
    ("name: x\nbase: configs/nope.yaml\n", "base: 'configs/nope.yaml' not found"),
    ("name: x\nbase: configs/small.yaml\ngrid: {a: 1}\n", "grid.a: expected a non-empty list"),
    ("name: x\nbase: configs/small.yaml\ngrid: {a: [[1]]}\n", "expected a scalar"),
    ("name: x\nbase: configs/small.yaml\nzip: {a: [1, 2], b: [1]}\n", "same length"),
    ("name: x\nbase: configs/small.yaml\ngrid: {workload.synthetic.seed: [1]}\nseeds: [1]\n",
     "more than one axis"),
    ("name: ../x\nbase: configs/small.yaml\n", "plain directory name"),
])
def test_schema_errors_name_the_key(make_sweep, body, msg):
    with pytest.raises(SweepError, match=msg.replace("(", r"\(").replace(")", r"\)")) as e:
        load_sweep(make_sweep(body))
    assert "sweep.yaml" in str(e.value)


def test_base_relative_to_sweep_file_first(proj):
    d = proj / "sweeps"
    d.mkdir()
    (d / "local.yaml").write_text("ftl: {gc: {policy: fifo}}\n")
    (d / "s.yaml").write_text("name: r\nbase: local.yaml\n")
    s = load_sweep(d / "s.yaml", root=proj)
    assert s.base_arg == "sweeps/local.yaml"
    (d / "s2.yaml").write_text("name: r\nbase: configs/small.yaml\n")   # falls back to the root
    assert load_sweep(d / "s2.yaml", root=proj).base_arg == "configs/small.yaml"


SW = """
    name: h
    base: configs/small.yaml
    grid: {ftl.gc.policy: [greedy, fifo]}
    traces: [traces/a.ascii]
"""


def test_hash_stable(make_sweep, proj):
    a = [p.hash for p in load_sweep(make_sweep(SW)).points("v1")]
    b = [p.hash for p in load_sweep(make_sweep(SW)).points("v1")]
    assert a == b and len(set(a)) == 2
    # key order and comments in the base file do not matter
    (proj / "configs" / "small.yaml").write_text(
        "# same content\nworkload:\n  synthetic: {requests: 500}\nftl: {gc: {policy: greedy}}\n")
    assert [p.hash for p in load_sweep(make_sweep(SW)).points("v1")] == a
    # an override equal to the base value is the same run as no override
    one = load_sweep(make_sweep("name: h\nbase: configs/small.yaml\nset: {ftl.gc.policy: greedy}\n"
                                "traces: [traces/a.ascii]\n")).points("v1")
    assert one[0].hash == a[0]


def test_hash_invalidation(make_sweep, proj):
    a = [p.hash for p in load_sweep(make_sweep(SW)).points("v1")]
    assert not set(a) & {p.hash for p in load_sweep(make_sweep(SW)).points("v2")}, "version"
    (proj / "configs" / "small.yaml").write_text("ftl: {gc: {policy: greedy}}\nworkload: {synthetic: {requests: 501}}\n")
    b = [p.hash for p in load_sweep(make_sweep(SW)).points("v1")]
    assert not set(a) & set(b), "base file content"
    (proj / "traces" / "a.ascii").write_text("0 W 0 8\n")
    c = [p.hash for p in load_sweep(make_sweep(SW)).points("v1")]
    assert not set(b) & set(c), "trace content"
    d = [p.hash for p in load_sweep(make_sweep(SW.replace("fifo", "random"))).points("v1")]
    assert d[0] == c[0] and d[1] != c[1], "an override"


def _recording(proj, name: str, body: str) -> None:
    """A recorded workload in proj/traces/workloads/ as scripts/workloads/record.sh writes it."""
    import hashlib
    import json
    import lzma
    d = proj / "traces" / "workloads"
    d.mkdir(parents=True, exist_ok=True)
    raw = body.encode()
    packed = lzma.compress(raw)
    (d / f"{name}.iolog.xz").write_bytes(packed)
    (d / f"{name}.json").write_text(json.dumps({"sha256_xz": hashlib.sha256(packed).hexdigest(),
                                                "sha256_iolog": hashlib.sha256(raw).hexdigest()}))


def test_workloads_axis_unpacks_and_checks(make_sweep, proj):
    _recording(proj, "app", "fio version 3 iolog\n0 ssdvp write 0 4096\n1000 ssdvp sync 0 0\n")
    s = load_sweep(make_sweep("""
        name: w
        base: configs/small.yaml
        workloads: [app]
    """))
    (pt,) = s.points("v1")
    assert pt.overrides == {"workload.source": "trace", "workload.trace": "out/workloads/unpacked/app.iolog",
                            "workload.format": "fio", "workload.fio_time_unit_ps": "1"}
    assert (proj / "out/workloads/unpacked/app.iolog").read_text().startswith("fio version 3 iolog")
    assert "out/workloads/unpacked/app.iolog" in pt.files
    with pytest.raises(SweepError, match="no recorded workload 'nope'.*known: app"):
        load_sweep(make_sweep("""
            name: w
            base: configs/small.yaml
            workloads: [nope]
        """, "bad.yaml"))
    (proj / "traces/workloads/app.iolog.xz").write_bytes(b"corrupt")
    (proj / "out/workloads/unpacked/app.sha256").unlink()
    with pytest.raises(SweepError, match="sha256 differs"):
        load_sweep(make_sweep("""
            name: w
            base: configs/small.yaml
            workloads: [app]
        """, "bad2.yaml"))


def test_workload_entries_with_overrides_and_placeholders(make_sweep, proj):
    """{name, set} entries carry per-workload overrides; {workload} and {seed} are filled per point; a file a run
    writes (OUTPUT_KEYS) is not digested, a file a run reads is."""
    _recording(proj, "a", "fio version 3 iolog\n0 ssdvp write 0 4096\n")
    _recording(proj, "b", "fio version 3 iolog\n0 ssdvp write 8192 4096\n")
    (proj / "models").mkdir()
    (proj / "models/b-s1.model").write_text("trained on b\n")
    (proj / "models/a-s1.model").write_text("trained on a\n")
    s = load_sweep(make_sweep("""
        name: h
        base: configs/small.yaml
        set: {host.predict.model_out: "models/{workload}-s{seed}.model"}
        workloads:
        - {name: a, set: {host.predict.model: "models/b-s{seed}.model", workload.time_scale: 2}}
        - {name: b, set: {host.predict.model: "models/a-s{seed}.model", workload.time_scale: 4}}
        seeds: [1, 2]
        seed_key: host.predict.seed
    """))
    assert s.name == "h"
    pts = s.points("v1")
    assert len(pts) == 4
    a1 = pts[0].overrides
    assert a1["host.predict.model"] == "models/b-s1.model" and a1["host.predict.model_out"] == "models/a-s1.model"
    assert a1["workload.time_scale"] == "2" and pts[2].overrides["workload.time_scale"] == "4"
    assert pts[1].overrides["host.predict.model"] == "models/b-s2.model"
    assert "models/b-s1.model" in pts[0].files, "a model the run reads is part of its identity"
    assert "models/a-s1.model" not in pts[0].files, "the model the run writes is not"
    with pytest.raises(SweepError, match="every entry must set the same keys"):
        load_sweep(make_sweep("""
            name: h
            base: configs/small.yaml
            workloads:
            - {name: a, set: {workload.time_scale: 2}}
            - b
        """, "bad.yaml"))
    with pytest.raises(SweepError, match="needs a seeds axis"):
        load_sweep(make_sweep("""
            name: h
            base: configs/small.yaml
            set: {host.predict.model_out: "m-{seed}"}
            workloads: [a]
        """, "bad2.yaml")).points("v1")
