# filebench-webserver - seed 000's Filebench webserver, by fbp
# (scripts/workloads/filebench/fbp.c, ours; its header says how close it is
# to webserver.f): 100 threads, each loop reads 10 whole files and appends
# (mean 16 KiB) to one log file; files of a gamma(1.5) size, mean 16 KiB,
# directories 20 wide, all laid out first.
# File system: mke2fs defaults, the kernel's mount defaults, no fstrim.
# Job: entries = WL_DATA_MIB / 16 KiB (the data set); the layout (fbp with
# loops=0), sync, the page cache dropped (so each file's first read reaches
# the drive: with 1 GiB of guest RAM a smaller data set stays cached after
# that), then one run of fbp with loops per thread such that the log grows by
# WL_DATA_MIB / 8. A read-mostly
# personality: its writes are the layout and the log, not two drive-writes
# (WL_WRITE_MIB is not used).
ROOT_SET=base
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=0
job_run() {
  n=$((WL_DATA_MIB * 64)) loops=$((WL_DATA_MIB * 1024 / 8 / 16 / 100))
  [ "$loops" -ge 1 ] || loops=1
  fbp webserver "$1/ws" nfiles=$n loops=0 seed="$WL_SEED" || return 1
  sync && echo 3 >/proc/sys/vm/drop_caches
  fbp webserver "$1/ws" nfiles=$n loops=$loops seed="$WL_SEED" || return 1
  echo "WL-ROUND 0 written=$(wl_written_mib)MiB"
}
