#!/usr/bin/env bash
# record.sh NAME [WL_NAME=NUMBER...] - records one real application workload
# on ext4 on the simulated drive (docs/results/workloads.md). Steps, each
# failure an error naming it (`FAIL: step ...`, exit 1):
#   root    the application root (scripts/workloads/build-root.sh; the job's
#           `ROOT_SET=` line names the set) and the busybox initramfs
#           (scripts/guest/build-initramfs.sh with scripts/workloads/guest_init.sh
#           as /init, runner.sh and every job in scripts/workloads/jobs/)
#   serve   `ssdvp serve -c WL_CONFIG --record` (default configs/workloads.yaml:
#           4 GiB, preconditioned full, as fast as possible)
#   guest   qemu-system-x86_64 (TCG: nested KVM does not boot here), the
#           export as /dev/vda (virtio, cache=none, discard=unmap, 4 KiB logical
#           blocks), the root as /dev/vdb read-only; in the guest (runner.sh): mkfs.ext4 with the
#           job's options, mount, the application, sync, fstrim if the job
#           says so, umount, a marker read, `e2fsck -fn` (must be clean); any
#           GUEST-FAIL, a kernel panic or no GUEST-OK fails this step
#   drive   the session's summary: 0 integrity mismatches, no poisoned read,
#           no I/O error
#   cut     the recording up to the marker read (e2fsck's reads dropped)
#   write   OUTDIR/NAME.iolog.xz (fio iolog v3, times in ps), NAME.json (the
#           provenance: packages and versions with the .debs' sha256, kernel,
#           qemu, mkfs and mount options, the job file and its sha256, the
#           WL_* parameters and seed, the guest's wall time, request counts,
#           the recording's sha256 packed and unpacked), guest.log, summary.json
# WL_NAME=NUMBER arguments go to the job (WL_DATA_MIB, WL_WRITE_MIB, WL_DISCARD,
# WL_SEED: runner.sh's header). Environment: SSDVP (default
# build/platform/ssdvp), WL_CONFIG, OUTDIR (default out/workloads/NAME),
# SSDVP_GUEST_CACHE (kernel, initramfs and roots; default out/guest-root),
# GUEST_MEM (MiB, default 1024), GUEST_TIMEOUT (s, default 14400), REC_NAME
# (the recording's name, default NAME: a second recording of one job, e.g.
# with another WL_SEED, gets its own name; the provenance names the job). Exit 77
# (SKIP, with the reason) only when a tool or a Debian package is missing.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
jobname=${1:?usage: record.sh NAME [WL_NAME=NUMBER...]}
shift
name=${REC_NAME:-$jobname}
[[ $name =~ ^[a-z0-9][a-z0-9-]*$ ]] || { echo "FAIL: REC_NAME '$name': expected lower-case letters, digits and dashes"; exit 2; }
job=$src/scripts/workloads/jobs/$jobname.sh
[ -f "$job" ] || { echo "FAIL: step job: no $job (jobs: $(cd "$src/scripts/workloads/jobs" && ls | sed 's/\.sh$//' | tr '\n' ' '))"; exit 2; }
wl=()
for a in "$@"; do
  [[ $a =~ ^WL_[A-Z_]+=[0-9]+$ ]] || { echo "FAIL: '$a': expected WL_NAME=NUMBER"; exit 2; }
  wl+=("$a")
done
ssdvp=$(realpath "${SSDVP:-$src/build/platform/ssdvp}")
config=$(realpath "${WL_CONFIG:-$src/configs/workloads.yaml}")
dir=$(realpath -m "${OUTDIR:-$src/out/workloads/$name}")
cache=$(realpath -m "${SSDVP_GUEST_CACHE:-$src/out/guest-root}")
[ -x "$ssdvp" ] || { echo "FAIL: step serve: $ssdvp not built"; exit 1; }
for t in qemu-system-x86_64 xz sha256sum; do
  command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed (scripts/install-deps.sh)"; exit 77; }
done
set_name=$(sed -n 's/^ROOT_SET=\([a-z]*\).*/\1/p' "$job")
bash "$src/scripts/workloads/build-root.sh" "$cache" "${set_name:-base}" || { rc=$?; [ $rc -eq 77 ] && exit 77; echo "FAIL: step root"; exit 1; }
bash "$src/scripts/guest/build-initramfs.sh" "$cache" "$src/scripts/workloads/guest_init.sh" \
  "$src/scripts/workloads/runner.sh" "$src"/scripts/workloads/jobs/*.sh >/dev/null ||
  { rc=$?; [ $rc -eq 77 ] && exit 77; echo "FAIL: step root: initramfs"; exit 1; }
mkdir -p "$dir" && cd "$dir" || exit 1
rm -rf out nbd.sock session.iolog session.iolog.times.csv guest.log "$name".*
cp "$job" job.sh # the job as it ran (the provenance hashes this copy)
git -C "$src" log -1 --format=%H -- "$job" >job.commit 2>/dev/null
git -C "$src" diff --quiet HEAD -- "$job" 2>/dev/null || echo "(changed since)" >>job.commit
. "$src/testbench/nbd/serve_lib.sh"
start_serve "$ssdvp" "$config"
# The export as /dev/vda with 4 KiB logical blocks (the export's minimum block
# size: with 512-byte sectors the kernel splits mke2fs's whole-device discard
# of a 4 GiB drive at 2^22-1 sectors, which the export rejects as unaligned),
# then the root as /dev/vdb, read-only.
disks=(-drive "if=none,id=export,file.driver=nbd,file.path=$sock,file.export=ssdvp,format=raw,cache=none,discard=unmap"
  -device "virtio-blk-pci,drive=export,logical_block_size=4096,physical_block_size=4096"
  -drive "if=none,id=root,file=$cache/root-${set_name:-base}.img,format=raw,readonly=on"
  -device "virtio-blk-pci,drive=root")
echo "${disks[*]}" >qemu-disks.txt
t0=$(date +%s)
timeout "${GUEST_TIMEOUT:-14400}" qemu-system-x86_64 -M pc -m "${GUEST_MEM:-1024}" -nographic -no-reboot -nodefaults \
  -serial stdio -kernel "$cache/vmlinuz" -initrd "$cache/initramfs-guest_init.cpio.gz" \
  -append "console=ttyS0 panic=-1 quiet WL_JOB=$jobname ${wl[*]}" \
  "${disks[@]}" >guest.log 2>&1 </dev/null
qrc=$? t1=$(date +%s)
grep -a -q "GUEST-FAIL" guest.log && fail "step guest: $(grep -a GUEST-FAIL guest.log | head -1 | tr -d '\r')"
grep -a -q "Kernel panic" guest.log && fail "step guest: kernel panic: $(grep -a -m1 'Kernel panic' guest.log)"
grep -a -q "GUEST-OK" guest.log || fail "step guest: no GUEST-OK (qemu exit $qrc$([ $qrc = 124 ] && echo ', timeout')): $(tail -3 guest.log)"
stop_serve
python3 - "$src" "$name" "$job" "$cache" "$config" "$((t1 - t0))" "${wl[*]}" <<'PY' || exit 1
import hashlib, json, lzma, os, re, subprocess, sys
src, name, job, cache, config, wall, wlargs = sys.argv[1:8]
def fail(msg):
    sys.exit(f"FAIL: step {msg}")
j = json.load(open("out/summary.json"))
n = j["nbd"]
if j["integrity"]["mismatches"] or n["store"]["poisoned_reads"] or n["io_errors"]:
    fail(f"drive: integrity {j['integrity']}, poisoned {n['store']['poisoned_reads']}, io errors {n['io_errors']}")
size = int(re.search(r"WL-PARAMS .*drive=(\d+)MiB", open("guest.log", errors="replace").read()).group(1)) << 20
marker = f"read {size - 12288} 12288"
lines = open("session.iolog").read().splitlines(keepends=True)
cut = max((i for i, l in enumerate(lines) if l.rstrip().endswith(marker)), default=None)
if cut is None:
    fail("cut: no marker read in the recording")
body = lines[:cut]
ops = {}
for l in body[1:]:
    p = l.split()
    ops[p[2]] = ops.get(p[2], 0) + 1
    if p[2] == "write":
        ops["write_bytes"] = ops.get("write_bytes", 0) + int(p[4])
# The guest's queue depth: requests in the drive at once (simulated time), up to the cut.
ev, cut_ps = [], int(lines[cut].split()[0])
with open("session.iolog.times.csv") as f:
    next(f)
    for row in f:
        c = row.split(",")
        if int(c[7]) < cut_ps:
            ev += [(int(c[7]), 1), (int(c[8]), -1)]
depth = qd = 0
for _, d in sorted(ev, key=lambda e: (e[0], e[1])):
    depth += d
    qd = max(qd, depth)
raw = "".join(body).encode()
xzdata = lzma.compress(raw, preset=9)
open(f"{name}.iolog.xz", "wb").write(xzdata)
log = open("guest.log", errors="replace").read().replace("\r", "")
def grab(tag):  # the console's escape sequences may precede a marker on its line
    return [l[l.index(tag):] for l in log.splitlines() if tag in l]
pk = {}
setname = re.search(r"^ROOT_SET=(\w+)", open(job).read(), re.M)
for l in open(os.path.join(cache, f"packages-{setname.group(1) if setname else 'base'}.txt")):
    p, v, h = l.split()
    pk[p] = {"version": v, "deb_sha256": h} if v != "(ours)" else {"source": f"scripts/workloads/filebench/{p}.c",
                                                                    "sha256": h}
git = lambda *a: subprocess.run(["git", "-C", src, *a], capture_output=True, text=True).stdout.strip()
prov = {
    "name": name,
    "recording": f"{name}.iolog.xz",
    "format": "fio iolog v3, times in ps (replay: --trace NAME.iolog.xz --trace-format fio; the unit is told from the file name ssdvp)",
    "sha256_xz": hashlib.sha256(xzdata).hexdigest(),
    "sha256_iolog": hashlib.sha256(raw).hexdigest(),
    "requests": sum(v for k, v in ops.items() if k != "write_bytes"),
    "queue_depth": qd,
    "by_op": ops,
    "drive": {"config": os.path.relpath(config, src), "export_bytes": size,
              "drive_writes": round(ops.get("write_bytes", 0) / size, 3)},
    "job": {"file": os.path.relpath(job, src), "sha256": hashlib.sha256(open("job.sh", "rb").read()).hexdigest(),
            "commit": " ".join(open("job.commit").read().split()), "text": open("job.sh").read(),
            "parameters": grab("WL-PARAMS"), "kernel_args": wlargs,
            # jobs a job sources (`. /jobs/NAME.sh`), as they ran
            "includes": [{"file": f"scripts/workloads/jobs/{m}.sh",
                          "sha256": hashlib.sha256(open(f"{src}/scripts/workloads/jobs/{m}.sh", "rb").read()).hexdigest(),
                          "text": open(f"{src}/scripts/workloads/jobs/{m}.sh").read()}
                         for m in re.findall(r"^\. /jobs/([a-z0-9-]+)\.sh", open("job.sh").read(), re.M)]},
    "mkfs": grab("STEP mkfs") + grab("WL-MKFS"),
    "mount": grab("STEP mount") + [l for l in log.splitlines() if " /mnt ext4 " in l],
    "rounds": grab("WL-ROUND"),
    "run": grab("WL-RUN-SECONDS") + grab("WL-BLOCKSTAT"),
    "fsck": [l for l in log.splitlines() if "/dev/vda:" in l and "files" in l],
    "guest_wall_seconds": int(wall),
    "packages": pk,
    "kernel": open(os.path.join(cache, "kernel-package")).read().strip(),
    "qemu": subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True, text=True).stdout.splitlines()[0],
    "accel": "tcg",
    "qemu_disks": open("qemu-disks.txt").read().strip().replace(os.getcwd() + "/", "").replace(src + "/", ""),
    "guest_mem_mib": int(os.environ.get("GUEST_MEM", "1024")),
    "ssdvp": {"commit": git("rev-parse", "HEAD"), "changed_files": len(git("status", "--porcelain").splitlines())},
    "session": {"integrity": j["integrity"], "waf": j["ftl"]["waf"], "nbd_requests": n["requests"]},
}
json.dump(prov, open(f"{name}.json", "w"), indent=1)
print(f"PASS: {name}: {prov['requests']} requests {ops}, {prov['drive']['drive_writes']} drive-writes, "
      f"{len(xzdata)} bytes xz, guest {wall} s, sha256 {prov['sha256_xz']}")
PY
