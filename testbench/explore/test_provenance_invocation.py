"""Provenance records the command line that made the data, options included, whatever the script passes as its
canonical command; the page shows it when it differs."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "explore"))
from ssdvp_explore import provenance as prov  # noqa: E402


def test_a_script_is_named_from_the_repository_with_its_options():
    argv = [str(ROOT / "scripts" / "journal_recorded.py"), "--jobs", "1", "--study", "two words"]
    assert prov.invocation(ROOT, argv) == "python3 scripts/journal_recorded.py --jobs 1 --study 'two words'"


def test_explore_run_as_a_module_is_named_as_its_wrapper():
    argv = [str(ROOT / "explore" / "ssdvp_explore" / "__main__.py"), "reproduce", "raid-trigger", "-j", "1"]
    assert prov.invocation(ROOT, argv) == "explore/ssdvp-explore reproduce raid-trigger -j 1"


def test_a_program_outside_the_tree_keeps_its_name_only():
    assert prov.invocation(ROOT, ["/opt/x/run.sh", "a"]) == "run.sh a"
    assert prov.invocation(ROOT, ["-c"]) == ""


def test_collect_records_this_process_unless_told():
    p = prov.collect(None, "python3 scripts/x.py", ROOT)
    assert p["invocation"] == prov.invocation(ROOT)
    assert prov.collect(None, "python3 scripts/x.py", ROOT, invoked="sh -c y")["invocation"] == "sh -c y"


def test_the_section_shows_the_invocation_only_when_it_differs():
    base = {"commit": "abc", "command": "python3 scripts/x.py"}
    assert "run as" not in prov.section(base)                                           # older data
    assert "run as" not in prov.section(dict(base, invocation="python3 scripts/x.py"))
    text = prov.section(dict(base, invocation="python3 scripts/x.py --jobs 1"))
    assert "- command: `python3 scripts/x.py`\n- run as: `python3 scripts/x.py --jobs 1`\n" in text


def test_a_script_run_from_the_shell_records_its_own_options(tmp_path):
    code = ("import sys; sys.path.insert(0, %r); from ssdvp_explore import provenance as p; "
            "import json; print(json.dumps(p.collect(None, 'canonical', %r)))") % (str(ROOT / "explore"), str(ROOT))
    script = tmp_path / "maker.py"
    script.write_text(code + "\n")
    out = subprocess.run([sys.executable, str(script), "--repeats", "3"], capture_output=True, text=True, check=True)
    made = json.loads(out.stdout)
    assert (made["command"], made["invocation"]) == ("canonical", "python3 maker.py --repeats 3")


def test_the_shell_helper_records_the_callers_command_not_its_own():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "provenance.py"), "/nonexistent/ssdvp",
                          "python3", "scripts/x.py", "--jobs", "1"], capture_output=True, text=True, check=True)
    assert "- command: `python3 scripts/x.py --jobs 1`" in out.stdout
    assert "run as" not in out.stdout
