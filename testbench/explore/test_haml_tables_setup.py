"""scripts/haml_tables.py's Fig. 3 runs replay each recording as the haml-recorded sweep does: its common keys and
the recording's own entry (period T, time scale, leading discards), so the page's T is the runs' T."""
import importlib.util
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("haml_tables", REPO / "scripts" / "haml_tables.py")
ht = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ht)


def test_a_recordings_fig3_run_takes_its_sweep_entry():
    sw = yaml.safe_load((REPO / "explore" / "sweeps" / "haml-recorded.yaml").read_text())
    for name in ht.RECORDINGS:
        entry = next(w["set"] for w in sw["workloads"] if isinstance(w, dict) and w["name"] == name)
        base, sets = ht.run_setup(name, "freq", 2)
        got = dict(s.split("=", 1) for s in sets)
        own = ht.recorded.overrides(ht.ROOT, name)  # the recording's drive: these win by design
        for k, v in {**sw["set"], **entry}.items():
            assert got[k] == str(own.get(k, v)), (name, k)
        assert got["ftl.hot.features"] == "freq" and got["precondition.seed"] == "2"
        assert got["ftl.placement.policy"] == "haml"
