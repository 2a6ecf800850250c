#!/usr/bin/env bash
# recorder_test.sh SSDVP DIR - scripts/workloads/record.sh on a small job:
# fio-randwrite-512k with a 64 MiB data set and 160 MiB written (the real
# packages, the real guest, the 4 GiB drive of configs/workloads.yaml), then
# the recording it wrote replayed clean (replay_test.sh). Exit 77 (SKIP, the
# reason printed) only when qemu, a tool or a Debian package is missing.
set -uo pipefail
ssdvp=$(realpath "$1") dir=$(realpath -m "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir/rec"
SSDVP=$ssdvp OUTDIR=$dir/rec SSDVP_GUEST_CACHE=${SSDVP_GUEST_CACHE:-$dir/guest-root} \
  bash "$src/scripts/workloads/record.sh" fio-randwrite-512k WL_DATA_MIB=64 WL_WRITE_MIB=160
rc=$?
[ $rc -eq 0 ] || exit $rc
bash "$src/testbench/workloads/replay_test.sh" "$ssdvp" "$dir/rec/fio-randwrite-512k.iolog.xz" "$dir/replay"
