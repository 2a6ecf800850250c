# filebench-fileserver - seeds 000 and 004's Filebench fileserver, by fbp
# (scripts/workloads/filebench/fbp.c, ours: Filebench is not in Debian; its
# header says how close it is to fileserver.f): 50 threads, each loop
# createfile + writewholefile (1 MiB I/Os), append (mean 16 KiB), read whole
# file, delete, stat; files of a gamma(1.5) size, mean 128 KiB, directories
# 20 wide, 80 % of the entries laid out first.
# File system: mke2fs defaults, the kernel's mount defaults (ordered journal,
# no discard), no fstrim.
# Job: entries = WL_DATA_MIB / 128 KiB / 0.8 (the laid-out files are the data
# set); rounds of fbp with loops per thread such that a round writes about
# WL_DATA_MIB / 2 (about 144 KiB a loop), seed WL_SEED+round, the fileset
# kept between rounds, until the device has taken WL_WRITE_MIB of writes.
ROOT_SET=base
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=0
job_run() {
  n=$((WL_DATA_MIB * 10)) loops=$((WL_DATA_MIB * 1024 / 2 / 144 / 50)) r=0
  [ "$loops" -ge 1 ] || loops=1
  while [ "$(wl_written_mib)" -lt "$WL_WRITE_MIB" ]; do
    fbp fileserver "$1/fs" nfiles=$n loops=$loops seed=$((WL_SEED + r)) || return 1
    echo "WL-ROUND $r written=$(wl_written_mib)MiB"
    r=$((r + 1))
  done
}
