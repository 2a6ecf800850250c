#!/usr/bin/env bash
# iss-profile.sh - where the iss mode's firmware instructions go, per host I/O
# (docs/performance.md, case (c)).
#
#   scripts/iss-profile.sh [SSDVP_BINARY] [REQUESTS] [--set key=value ...]
#
# Runs configs/small.yaml in iss mode twice, with REQUESTS (default 20000)
# and with 1 request (set-up and preconditioning), each writing
# cpu.iss.profile, and prints the firmware functions' instructions per host
# I/O of the difference (the timed part), largest first, with the run's
# instructions per I/O, WAF and firmware wake-ups. Outputs stay in OUT_DIR
# (default: a new temporary directory).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/platform/ssdvp}
REQ=${2:-20000}
shift $(($# < 2 ? $# : 2))
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/ssdvp-iss-profile.XXXXXX")}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
for n in "$REQ" 1; do
  "$BIN" run -q -c "$ROOT/configs/small.yaml" --set cpu.mode=iss --set workload.synthetic.requests="$n" \
    --set cpu.iss.profile="$OUT_DIR/profile-$n.tsv" -o "$OUT_DIR/run-$n" "$@"
done
python3 - "$OUT_DIR" "$REQ" <<'PY'
import json, sys
out, req = sys.argv[1], int(sys.argv[2])
def table(n):
    t = {}
    for line in open(f"{out}/profile-{n}.tsv"):
        if line[0].isdigit():
            c, _, f = line.rstrip("\n").split("\t")
            t[f] = int(c)
    return t
big, small = table(req), table(1)
diff = {f: big[f] - small.get(f, 0) for f in big}
total = sum(diff.values())
s, s1 = (json.load(open(f"{out}/run-{n}/summary.json")) for n in (req, 1))
ios = req - 1
print(f"timed part: {ios} host I/Os, {total:,} firmware instructions, {total / ios:,.0f} per I/O "
      f"(cpu.instructions: {(s['cpu']['instructions'] - s1['cpu']['instructions']) / ios:,.0f}); "
      f"WAF {s['ftl']['waf']}, wake-ups per I/O {(s['cpu'].get('wakeups', 0) - s1['cpu'].get('wakeups', 0)) / ios:.2f}")
print("instructions per I/O\tshare\tfunction")
for f, c in sorted(diff.items(), key=lambda x: -x[1])[:40]:
    print(f"{c / ios:10.1f}\t{c / total:6.1%}\t{f}")
print(f"(outputs in {out})", file=sys.stderr)
PY
