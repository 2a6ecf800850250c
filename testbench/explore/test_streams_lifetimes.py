"""scripts/streams_lifetimes.py (docs/results/streams.md): death classes as the oracle's, and the
separation scores of a stream assignment that follows lifetimes, one that does not, and no streams."""
import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("streams_lifetimes", REPO / "scripts" / "streams_lifetimes.py")
sl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sl)

LBA = 4096
LBAS = 64  # namespace: 64 LBAs


def test_death_class_is_the_oracles():
    # K = 8: class c for d * 2^7 / L in [2^c, 2^(c+1)), clamped to [0, 6]; never: 7
    assert sl.death_class(None, LBAS, 8) == 7
    assert sl.death_class(0, LBAS, 8) == 0
    assert sl.death_class(1, LBAS, 8) == 1  # 128 / 64 = 2
    assert sl.death_class(LBAS, LBAS, 8) == 6  # 2^7: clamped
    assert sl.death_class(3, LBAS, 2) == 0


def log(tmp_path, stream_of):
    """Four hot LBAs rewritten round-robin between writes of 60 LBAs written once."""
    lines, t = ["time_ps,op,offset,length,stream"], 0
    cold = iter(range(4, 64))
    for i in range(240):
        hot = i % 4
        lines.append(f"{t},write,{hot * LBA},{LBA},{stream_of(i, True)}")
        t += 1
        if i % 4 == 3:
            c = next(cold)
            lines.append(f"{t},write,{c * LBA},{LBA},{stream_of(i, False)}")
            t += 1
    p = tmp_path / "s.csv"
    p.write_text("\n".join(lines) + "\n")
    return sl.analyse(str(p), LBAS * LBA, LBA, 8)


def test_lifetime_streams_separate_and_others_do_not(tmp_path):
    good = log(tmp_path, lambda i, hot: 1 if hot else 2)
    none = log(tmp_path, lambda i, hot: 0)
    blind = log(tmp_path, lambda i, hot: 1 + (i // 4) % 2)  # alternates, whatever the data
    assert none["nmi"] == 0 and none["streams_used"] == 1
    assert none["spread"] == pytest.approx(none["workload_sd_class"])
    assert good["nmi"] > 0.8 and good["spread"] < 0.5 * none["spread"]
    assert blind["nmi"] < 0.1 and blind["spread"] > 0.9 * none["spread"]
    assert good["lbas_written"] == none["lbas_written"] == 300


def test_a_bad_line_names_file_and_line(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("time_ps,op,offset,length,stream\n0,write,0,4096,1\n1,read,0,4096,0\n")
    with pytest.raises(SystemExit, match=r"s\.csv:3: expected op write or trim"):
        sl.analyse(str(p), LBAS * LBA, LBA, 8)
