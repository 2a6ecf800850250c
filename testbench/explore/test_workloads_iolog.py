"""ssdvp_explore.workloads.read_iolog, the one Python reader of fio iologs (the recordings in traces/workloads/,
read by scripts/workloads/characterise.py, scripts/haml_tables.py and scripts/journal_ext4_real.py): a good v3 and
v2 file, an .xz file, a committed recording against its provenance, and malformed lines named by file:line."""
import lzma
from pathlib import Path

import numpy as np
import pytest

from ssdvp_explore import workloads as wl

ROOT = Path(__file__).resolve().parents[2]

V3 = """\

fio version 3 iolog
0 ssdvp add
0 ssdvp open
100 ssdvp write 4096 8192
250 ssdvp read 0 4096

300 ssdvp trim 65536 1048576
300 ssdvp sync 0 0
400 ssdvp datasync
500 ssdvp close
"""


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_v3_records_in_file_order(tmp_path):
    log = wl.read_iolog(write(tmp_path, "a.iolog", V3), time_unit_ps=1)
    assert log.version == 3 and len(log) == 5
    assert [wl.OPS[c] for c in log.op] == ["write", "read", "trim", "sync", "datasync"]
    assert log.time_ps.tolist() == [100, 250, 300, 300, 400]
    assert log.offset.tolist() == [4096, 0, 65536, 0, 0]
    assert log.length.tolist() == [8192, 4096, 1048576, 0, 0]
    assert log.line.tolist() == [5, 6, 8, 9, 10]   # a blank line before the header, as the simulator takes
    assert log.count(wl.WRITE) == 1 and log.count(wl.SYNC) == 1
    assert wl.read_iolog(write(tmp_path, "b.iolog", V3), time_unit_ps=1000).time_ps[-1] == 400_000


def test_v2_times_are_the_waits(tmp_path):
    text = "fio version 2 iolog\r\n/dev/x add\n/dev/x write 0 4096\n/dev/x wait 3\n/dev/x read 0 4096\n/dev/x wait 2\n" \
           "/dev/x sync\n"
    log = wl.read_iolog(write(tmp_path, "v2.iolog", text), time_unit_ps=1)   # (a v2 log's times do not use the unit)
    assert log.version == 2
    assert log.time_ps.tolist() == [0, 3_000_000, 5_000_000]
    assert [wl.OPS[c] for c in log.op] == ["write", "read", "sync"]


def test_xz_reads_as_the_plain_file(tmp_path):
    plain = wl.read_iolog(write(tmp_path, "a.iolog", V3), time_unit_ps=1)
    packed = tmp_path / "a.iolog.xz"
    packed.write_bytes(lzma.compress(V3.encode()))
    log = wl.read_iolog(packed, time_unit_ps=1)
    for field in ("time_ps", "op", "offset", "length", "line"):
        assert np.array_equal(getattr(log, field), getattr(plain, field))


def test_a_committed_recording_matches_its_provenance():
    name = "fio-randwrite-512k"
    by_op = wl.provenance(ROOT, name)["by_op"]
    log = wl.read_iolog(ROOT / wl.DIR / f"{name}.iolog.xz", time_unit_ps=wl.TIME_UNIT_PS)
    assert {op: log.count(wl.OPS.index(op)) for op in ("read", "write", "trim", "sync")} == \
        {op: by_op[op] for op in ("read", "write", "trim", "sync")}
    assert int(log.length[log.op == wl.WRITE].sum()) == by_op["write_bytes"]


@pytest.mark.parametrize("line, expected", [
    ("100 ssdvp write 4096", "expected 'offset length' after 'write', got '100 ssdvp write 4096'"),
    ("100 ssdvp rewrite 0 4096", "expected a fio action (read, write, trim, sync, datasync, add, open, close, wait), "
                                 "got 'rewrite'"),
    ("100 ssdvp write 4k 4096", "expected offset (bytes) as a non-negative integer, got '4k'"),
    ("-5 ssdvp write 0 4096", "expected timestamp (field 1) as a non-negative integer, got '-5'"),
    ("100 ssdvp", "expected 'timestamp filename action [offset length]', got '100 ssdvp'"),
])
def test_a_malformed_line_is_named(tmp_path, line, expected):
    p = write(tmp_path, "bad.iolog", "fio version 3 iolog\n0 ssdvp write 0 4096\n" + line + "\n")
    with pytest.raises(wl.IologError) as e:
        wl.read_iolog(p, time_unit_ps=1)
    assert str(e.value) == f"{p}:3: {expected}"


def test_a_malformed_line_in_an_xz_file_is_named(tmp_path):
    p = tmp_path / "bad.iolog.xz"
    p.write_bytes(lzma.compress(b"fio version 3 iolog\n0 ssdvp write 0 4096\n1 ssdvp write 0\n"))
    with pytest.raises(wl.IologError, match=r"bad\.iolog\.xz:3: expected 'offset length' after 'write'"):
        wl.read_iolog(p, time_unit_ps=1)


def test_the_header_is_required(tmp_path):
    with pytest.raises(wl.IologError) as e:
        wl.read_iolog(write(tmp_path, "nohead.iolog", "0 ssdvp write 0 4096\n"), time_unit_ps=1)
    assert str(e.value).endswith("nohead.iolog:1: expected the header 'fio version 2 iolog' or "
                                 "'fio version 3 iolog', got '0 ssdvp write 0 4096'")
    with pytest.raises(wl.IologError, match=r"empty\.iolog:1: expected the header .* got the end of the file"):
        wl.read_iolog(write(tmp_path, "empty.iolog", ""), time_unit_ps=1)
