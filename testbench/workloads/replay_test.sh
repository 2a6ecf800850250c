#!/usr/bin/env bash
# replay_test.sh SSDVP RECORDING DIR [REQUESTS] - a recorded application
# workload (traces/workloads/NAME.iolog.xz, scripts/workloads/record.sh):
# its sha256 against the one in NAME.json beside it (and the unpacked log's),
# then its first REQUESTS (default 10000) requests replayed by `ssdvp run` on
# the drive it was recorded on (NAME.json: drive.config) twice: open loop at the recording's timestamps and
# closed loop at the recording's queue depth (NAME.json: queue_depth). Each
# replay must exit 0 with 0 integrity mismatches and no poisoned read.
set -uo pipefail
ssdvp=$(realpath "$1") rec=$(realpath "$2") dir=$(realpath -m "$3") n=${4:-10000}
src=$(cd "$(dirname "$0")/../.." && pwd)
json=${rec%.iolog.xz}.json
mkdir -p "$dir" && cd "$dir" || exit 1
python3 - "$rec" "$json" "$n" <<'PY' || exit 1
import hashlib, json, lzma, sys
rec, js, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
j = json.load(open(js))
packed = open(rec, "rb").read()
if hashlib.sha256(packed).hexdigest() != j["sha256_xz"]:
    sys.exit(f"FAIL: {rec}: sha256 {hashlib.sha256(packed).hexdigest()} != {j['sha256_xz']} ({js})")
raw = lzma.decompress(packed)
if hashlib.sha256(raw).hexdigest() != j["sha256_iolog"]:
    sys.exit(f"FAIL: {rec}: unpacked sha256 differs from {js}")
lines = raw.decode().splitlines(keepends=True)
open("first.iolog", "w").write("".join(lines[: n + 1]))
open("qd", "w").write(str(j["queue_depth"]))
open("config", "w").write(j["drive"]["config"])
print(f"sha256 ok; {min(n, len(lines) - 1)} of {len(lines) - 1} requests; queue depth {j['queue_depth']}")
PY
for mode in open closed; do
  rm -rf "out-$mode"
  "$ssdvp" run -c "$src/$(cat config)" --trace first.iolog --trace-format fio \
    --set workload.fio_time_unit_ps=1 --set host.mode=$mode --set host.queue_depth="$(cat qd)" -o "out-$mode" \
    >"run-$mode.txt" 2>&1
  rc=$?
  [ $rc -eq 0 ] || { tail -5 "run-$mode.txt"; echo "FAIL: $mode-loop replay exited $rc"; exit 1; }
  python3 - "out-$mode/summary.json" "$mode" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
i = j["integrity"]
print(f"{sys.argv[2]} loop: integrity {i}, WAF {j['ftl']['waf']}")
if i["mismatches"] or i.get("poisoned_reads", 0):
    sys.exit(f"FAIL: {sys.argv[2]}-loop replay: integrity {i}")
PY
done
echo "PASS: $(basename "$rec")"
