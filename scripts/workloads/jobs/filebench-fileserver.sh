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
job_run() { fbp_rounds fileserver "$1/fs" $((WL_DATA_MIB * 10)) 144 50; }
