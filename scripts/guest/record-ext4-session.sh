#!/usr/bin/env bash
# record-ext4-session.sh SSDVP OUTDIR [WL_NAME=VALUE...] - records a real
# ext4's I/O on the simulated drive for the journal/data separation replay
# (docs/results/journal_ext4_real.md): `ssdvp serve -c configs/nbd.yaml
# --record` (the drive preconditioned full, so GC works from the start); the
# host runs mkfs.ext4 on a sparse image of the export's size, keeps its
# layout (`dumpe2fs -h` and `debugfs -R "stat <8>"`, the format of
# traces/ext4-896MiB.layout) and copies only its written blocks in
# (`nbdcopy --destination-is-zero`: the export reads never-written LBAs as
# zeros, so the drive stays full, as a used drive without discard is);
# qemu-system-x86_64 (TCG) boots Debian's kernel with
# scripts/guest/workload_init.sh as /init, which mounts ext4 (defaults:
# ordered journal, no discard) and runs scripts/guest/ext4_workload.sh with
# the WL_* parameters given here (its header lists them), then checks every
# file read back after dropping the page cache; the host reads the export
# back and runs `e2fsck -fn` on it. Writes to OUTDIR: session.iolog and
# session.iolog.times.csv (the whole session), guest.iolog (the session up
# to the guest's last request: mkfs's blocks and the guest, without the
# read-back), ext4.layout, guest.log, summary.json, provenance.txt.
# Environment: SSDVP_GUEST_CACHE (kernel and initramfs; default
# OUTDIR/guest-image), GUEST_TIMEOUT (seconds, default 7200), GUEST_MEM
# (qemu -m, default 512). Exit 77 when a tool is missing or the kernel cannot
# be fetched.
set -uo pipefail
ssdvp=$(realpath "$1") dir=$(realpath -m "$2")
shift 2
wl=()
for a in "$@"; do
  [[ $a =~ ^WL_[A-Z_]+=[0-9]+$ ]] || { echo "FAIL: '$a': expected WL_NAME=NUMBER (scripts/guest/ext4_workload.sh)"; exit 2; }
  wl+=("$a")
done
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/testbench/nbd/serve_lib.sh"
for t in qemu-system-x86_64 mkfs.ext4 dumpe2fs e2fsck debugfs nbdcopy nbdinfo; do
  command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed (scripts/install-deps.sh)"; exit 77; }
done
mkdir -p "$dir"
cache=${SSDVP_GUEST_CACHE:-$dir/guest-image}
bash "$src/scripts/guest/build-initramfs.sh" "$cache" "$src/scripts/guest/workload_init.sh" \
  "$src/scripts/guest/ext4_workload.sh" || exit $?
cd "$dir" || exit 1
rm -rf out nbd.sock session.iolog session.iolog.times.csv guest.iolog
start_serve "$ssdvp" "$src/configs/nbd.yaml"
size=$(nbdinfo --size "$uri") || fail "nbdinfo"
mkfs_line="mkfs.ext4 -q -F -b 4096 -E nodiscard -L ssdvp fs.img"
rm -f fs.img && truncate -s "$size" fs.img && $mkfs_line || fail "mkfs.ext4"
{ echo "# dumpe2fs -h fs.img"; dumpe2fs -h fs.img 2>&1
  echo "# debugfs -R 'stat <8>' fs.img"; debugfs -R "stat <8>" fs.img 2>&1; } >ext4.layout
nbdcopy --destination-is-zero fs.img "$uri" || fail "nbdcopy in"
rm -f fs.img
t0=$(date +%s)
timeout "${GUEST_TIMEOUT:-7200}" qemu-system-x86_64 -M pc -m "${GUEST_MEM:-512}" -nographic -no-reboot -nodefaults \
  -serial stdio -kernel "$cache/vmlinuz" -initrd "$cache/initramfs-workload_init.cpio.gz" \
  -append "console=ttyS0 panic=-1 quiet ${wl[*]}" \
  -drive "file.driver=nbd,file.path=$sock,file.export=ssdvp,format=raw,if=virtio,cache=none,discard=unmap" \
  >guest.log 2>&1 </dev/null
t1=$(date +%s)
grep -q GUEST-OK guest.log || fail "the guest did not finish: $(grep -a -E 'GUEST-|WL-FAIL' guest.log; tail -5 guest.log)"
nbdcopy "$uri" back.img || fail "nbdcopy out"
e2fsck -fn back.img >fsck.txt 2>&1 || fail "e2fsck -fn: $(cat fsck.txt)"
rm -f back.img
stop_serve
python3 - "$src" <<'PY' || exit 1
import csv, json, sys
j = json.load(open("out/summary.json"))
n = j["nbd"]
print("nbd:", n["clients"], "clients", n["requests"], "requests", n["by_command"], "integrity", j["integrity"],
      "WAF", j["ftl"]["waf"])
if j["integrity"]["mismatches"] or n["store"]["poisoned_reads"] or n["io_errors"]:
    sys.exit("FAIL: integrity")
# The read-back: the clients that only read and started after the guest's
# last flush. Cut the iolog before their first request.
rows = list(csv.DictReader(open("session.iolog.times.csv")))
ops = {}
for r in rows:
    ops.setdefault(r["client"], set()).add(r["op"])
last_flush = max(int(r["seq"]) for r in rows if r["op"] == "sync")
first = {}
for r in rows:
    first.setdefault(r["client"], int(r["seq"]))
back = [c for c, o in ops.items() if o == {"read"} and first[c] > last_flush]
cut = min(int(r["sim_arrival_ps"]) for r in rows if r["client"] in back)
kept = 0
with open("session.iolog") as f, open("guest.iolog", "w") as g:
    for line in f:
        p = line.split()
        if len(p) >= 3 and p[0].isdigit() and int(p[0]) >= cut:
            continue
        g.write(line)
        kept += len(p) >= 3 and p[0].isdigit()
print("guest.iolog:", kept, "requests before the read-back by clients", ",".join(sorted(back)))
PY
{
  echo "ssdvp: $("$ssdvp" --version 2>&1 | head -1)"
  echo "source tree: $(git -C "$src" rev-parse HEAD 2>/dev/null) $(git -C "$src" status --porcelain 2>/dev/null | wc -l) changed files"
  echo "kernel: $(cat "$cache/kernel-package")"
  echo "qemu: $(qemu-system-x86_64 --version | head -1)"
  echo "mkfs: $mkfs_line ($(mkfs.ext4 -V 2>&1 | head -1))"
  echo "workload: ${wl[*]:-defaults}"
  echo "guest wall time: $((t1 - t0)) s"
  date -u
} >provenance.txt
cat provenance.txt
echo "PASS: $(grep -a GUEST-VERIFY-OK guest.log | tr -d '\r'), e2fsck clean"
