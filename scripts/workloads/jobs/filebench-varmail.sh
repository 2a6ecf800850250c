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
job_run() { fbp_rounds varmail "$1/vm" $((WL_DATA_MIB * 80)) 32 16; }
