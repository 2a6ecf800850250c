# filebench-varmail - seed 004's Filebench varmail, by fbp
# (scripts/workloads/filebench/fbp.c, ours; its header says how close it is
# to varmail.f): 16 threads, each loop deletefile; createfile + append (mean
# 16 KiB) + fsync; read whole file + append + fsync; read whole file; files of
# a gamma(1.5) size, mean 16 KiB, in one directory, 80 % laid out first.
# File system: mke2fs defaults, the kernel's mount defaults (ordered journal,
# no discard), no fstrim.
# Job: entries = WL_DATA_MIB / 16 KiB / 0.8; rounds of fbp with loops per
# thread such that a round writes about WL_DATA_MIB / 2 (about 32 KiB a
# loop), seed WL_SEED+round, until the device has taken WL_WRITE_MIB.
ROOT_SET=base
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=0
job_run() {
  n=$((WL_DATA_MIB * 64 * 5 / 4)) loops=$((WL_DATA_MIB * 1024 / 2 / 32 / 16)) r=0
  [ "$loops" -ge 1 ] || loops=1
  while [ "$(wl_written_mib)" -lt "$WL_WRITE_MIB" ]; do
    fbp varmail "$1/vm" nfiles=$n loops=$loops seed=$((WL_SEED + r)) || return 1
    echo "WL-ROUND $r written=$(wl_written_mib)MiB"
    r=$((r + 1))
  done
}
