#!/usr/bin/env bash
# guest_test.sh SSDVP DIR [RECORD] - a Linux guest on the simulated drive
# (docs/models/nbd.md): `ssdvp serve` exports configs/nbd.yaml; the host puts
# an ext4 file system on the export (mkfs.ext4 on a sparse image, nbdcopy
# in); qemu-system-x86_64 (TCG, no KVM) boots Debian's kernel with the busybox
# initramfs of scripts/guest/build-initramfs.sh, the export as its virtio
# disk; the guest mounts it, writes, copies, deletes and rewrites files,
# syncs, runs fstrim and powers off; the host reads the image back over NBD,
# runs `e2fsck -fn` on it and checks every file's SHA-256 against the
# guest's. RECORD: keep the session's recording there. Exit 77 (SKIP) when a
# tool is missing or the kernel cannot be fetched.
set -uo pipefail
ssdvp=$(realpath "$1") dir=$(realpath -m "$2") record=${3:+$(realpath -m "$3")}
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/testbench/nbd/serve_lib.sh"
for t in qemu-system-x86_64 mkfs.ext4 e2fsck debugfs nbdcopy; do
  command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed (scripts/install-deps.sh)"; exit 77; }
done
mkdir -p "$dir"
cache=${SSDVP_GUEST_CACHE:-$dir/../guest-image}
bash "$src/scripts/guest/build-initramfs.sh" "$cache" || exit $?
rm -rf "$dir/run"; mkdir -p "$dir/run"; cd "$dir/run" || exit 1
start_serve "$ssdvp" "$src/configs/nbd.yaml"
size=$(nbdinfo --size "$uri" 2>/dev/null || echo 939524096)
truncate -s "$size" fs.img
mkfs.ext4 -q -F -b 4096 -E nodiscard -L ssdvp fs.img || fail "mkfs.ext4"
nbdcopy fs.img "$uri" || fail "nbdcopy in"
rm -f fs.img
timeout 900 qemu-system-x86_64 -M pc -m 256 -nographic -no-reboot -nodefaults -serial stdio \
  -kernel "$cache/vmlinuz" -initrd "$cache/initramfs.cpio.gz" -append "console=ttyS0 panic=-1 quiet" \
  -drive "file.driver=nbd,file.path=$sock,file.export=ssdvp,format=raw,if=virtio,cache=none,discard=unmap" \
  >guest.log 2>&1 </dev/null
grep -q GUEST-OK guest.log || fail "the guest did not finish: $(grep GUEST- guest.log; tail -5 guest.log)"
grep -q "GUEST-NOTE: fstrim failed" guest.log && fail "fstrim failed in the guest"
nbdcopy "$uri" back.img || fail "nbdcopy out"
e2fsck -fn back.img >fsck.txt 2>&1 || fail "e2fsck -fn: $(cat fsck.txt)"
sed -n '/GUEST-SUMS-BEGIN/,/GUEST-SUMS-END/p' guest.log | tr -d '\r' | grep -E '^[0-9a-f]{64} ' >sums.txt
[ "$(wc -l <sums.txt)" -ge 20 ] || fail "too few checksums from the guest: $(cat sums.txt)"
while read -r sum path; do
  debugfs -R "dump /$path f.tmp" back.img >/dev/null 2>&1 || fail "debugfs dump /$path"
  [ "$(sha256sum <f.tmp | cut -d' ' -f1)" = "$sum" ] || fail "/$path: checksum differs"
done <sums.txt
rm -f back.img f.tmp
stop_serve
python3 - <<'PY' || exit 1
import json, sys
j = json.load(open("out/summary.json"))
n = j["nbd"]
print("nbd:", n["clients"], "clients", n["requests"], "requests", n["by_command"], "integrity", j["integrity"],
      "WAF", j["ftl"]["waf"])
sys.exit(1 if j["integrity"]["mismatches"] or n["store"]["poisoned_reads"] or n["io_errors"] or not n["by_command"].get("trim") else 0)
PY
[ -z "$record" ] || cp session.iolog "$record" && { [ -z "$record" ] || cp session.iolog.times.csv "$record.times.csv"; }
echo "PASS: $(wc -l <sums.txt) files checked, e2fsck clean"
