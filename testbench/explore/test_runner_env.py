"""The runner starts ssdvp with SystemC's banner off (issue: sweep error cells
began with the banner instead of ssdvp's message)."""
import os
import stat
import sys

from ssdvp_explore import runner


def test_points_run_with_the_banner_off(tmp_path, monkeypatch):
    # a simulator that prints the banner unless told not to, then fails
    fake = tmp_path / "ssdvp"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        "if os.environ.get('SYSTEMC_DISABLE_COPYRIGHT_MESSAGE') != '1':\n"
        "    sys.stderr.write('        SystemC 2.3.4 --- Copyright (c) Accellera\\n')\n"
        "sys.stderr.write('ssdvp: config key \\'x\\': bad\\n')\n"
        "sys.exit(2)\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.delenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", raising=False)
    res = runner.run_point({"binary": str(fake), "root": str(tmp_path), "base": "none.yaml",
                            "overrides": [], "timeout_s": 30, "hash": "0" * 64})
    assert res["exit_code"] == 2
    assert res["stderr"].startswith("ssdvp: config key"), res["stderr"]
    assert "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE" not in os.environ  # the caller's environment is left alone
