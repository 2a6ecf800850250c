#!/usr/bin/env bash
# clients_test.sh SSDVP CLIENT DIR - one real NBD client from Debian against
# `ssdvp serve` (configs/nbd.yaml, a Unix socket, nbd.persistent): data
# written and read back through the client compare equal, and the session's
# summary shows no integrity mismatch and no poisoned read.
# CLIENT: nbdinfo | nbdcopy | qemu_img | qemu_io | fio. Exit 77 (ctest SKIP)
# when the client is not installed (scripts/install-deps.sh installs them).
set -uo pipefail
ssdvp=$(realpath "$1") client=$2 dir=$(realpath -m "$3")
need() { command -v "$1" >/dev/null 2>&1 || { echo "SKIP: $1 not installed (scripts/install-deps.sh)"; exit 77; }; }
case $client in
  nbdinfo) need nbdinfo ;;
  nbdcopy) need nbdcopy ;;
  qemu_img) need qemu-img ;;
  qemu_io) need qemu-io ;;
  fio) need fio; fio --enghelp 2>/dev/null | grep -qw nbd || { echo "SKIP: this fio has no nbd engine"; exit 77; } ;;
esac
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/testbench/nbd/serve_lib.sh"
rm -rf "$dir"; mkdir -p "$dir"; cd "$dir" || exit 1
start_serve "$ssdvp" "$src/configs/nbd.yaml"
mib=16
head -c $((mib << 20)) /dev/urandom >in.bin
case $client in
  nbdinfo)
    nbdinfo "$uri" >info.txt || fail "nbdinfo"
    grep -q "export-size: 939524096" info.txt || fail "export size: $(cat info.txt)"
    grep -q "can_fua: true" info.txt || fail "FUA not advertised"
    grep -q "block_size_minimum: 4096" info.txt || fail "block size"
    nbdinfo --list "nbd+unix:///?socket=$sock" | grep -q 'export="ssdvp"' || fail "nbdinfo --list"
    ;;
  nbdcopy)
    nbdcopy in.bin "$uri" || fail "nbdcopy in"
    nbdcopy "$uri" - | head -c $((mib << 20)) >out.bin
    cmp in.bin out.bin || fail "nbdcopy: the bytes read back differ"
    [ "$(sha256sum <in.bin)" = "$(sha256sum <out.bin)" ] || fail "checksum"
    ;;
  qemu_img)
    img="driver=raw,offset=0,size=$((mib << 20)),file.driver=nbd,file.path=$sock,file.export=ssdvp"
    qemu-img convert -n -f raw in.bin --target-image-opts "$img" || fail "qemu-img convert in"
    qemu-img compare --image-opts "driver=raw,file.driver=file,file.filename=in.bin" "$img" || fail "qemu-img compare"
    qemu-img convert --image-opts "$img" -O raw out.bin || fail "qemu-img convert out"
    cmp in.bin out.bin || fail "qemu-img: the bytes read back differ"
    ;;
  qemu_io)
    q() { qemu-io -f raw "nbd+unix:///ssdvp?socket=$sock" "$@"; }
    q -c "write -P 0xa5 1M 256k" -c "write -P 0x3c -f 2M 64k" >io.txt || fail "qemu-io write"
    q -c "read -P 0xa5 1M 256k" -c "read -P 0x3c 2M 64k" -c "read -P 0 8M 64k" >>io.txt || fail "qemu-io read pattern"
    grep -q "Pattern verification failed" io.txt && fail "pattern: $(cat io.txt)"
    q -c "discard 1M 128k" -c "read -P 0 1M 128k" -c "read -P 0xa5 1152k 128k" -c "flush" >>io.txt || fail "qemu-io discard"
    grep -q "Pattern verification failed" io.txt && fail "pattern after discard: $(cat io.txt)"
    q -c "write -z 4M 64k" -c "read -P 0 4M 64k" >>io.txt || fail "qemu-io write zeroes"
    grep -q "Pattern verification failed" io.txt && fail "pattern after zeroes"
    ;;
  fio)
    cat >job.fio <<JOB
[global]
ioengine=nbd
uri=$uri
rw=randwrite
bs=4k
size=16m
iodepth=8
verify=crc32c
verify_backlog=0
[write-then-verify]
do_verify=1
JOB
    fio --output=fio.txt job.fio || fail "fio randwrite+verify: $(tail -20 fio.txt)"
    # a separate verify pass: the same job reading back what the first wrote
    fio --output=fio2.txt --verify_only job.fio || fail "fio verify pass: $(tail -20 fio2.txt)"
    grep -q "verify: bad" fio.txt fio2.txt && fail "fio reported bad data"
    ;;
esac
stop_serve
python3 - <<'PY' || exit 1
import json, sys
j = json.load(open("out/summary.json"))
n = j["nbd"]
print("nbd:", n["clients"], "clients", n["requests"], "requests", n["by_command"], "integrity", j["integrity"])
bad = j["integrity"]["mismatches"] or n["store"]["poisoned_reads"] or n["io_errors"]
sys.exit(1 if bad or n["requests"] == 0 else 0)
PY
echo PASS
