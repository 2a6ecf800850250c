# rocksdb-x2 - the LSTM-streams seed's Docker case: two RocksDB instances side
# by side on one file system, each Debian's db_bench with rocksdb.sh's round
# (the same options: 16-byte keys, 1000-byte values, no compression, WAL on
# without fsync, 16 MiB memtables and SST files, 64 MiB level 1), each in its
# own directory with half of WL_DATA_MIB, run at the same time so their
# flushes and compactions interleave on the drive as two containers' would.
# File system: as rocksdb.sh (mke2fs defaults, mount defaults, fstrim after
# the run).
# Job: round 0 is both instances' fillrandom, rounds 1.. both instances'
# overwrite of all their keys, instance a with seed WL_SEED+round and b with
# WL_SEED+1000+round, until the device has taken WL_WRITE_MIB of writes.
ROOT_SET=rocksdb
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=1
. /jobs/rocksdb.sh
both() { # DIR ROUND
  WL_DATA_MIB=$((WL_DATA_MIB / 2)) DB_OUT=/tmp/db-a.out round "$1/a" "$2" & a=$!
  WL_DATA_MIB=$((WL_DATA_MIB / 2)) DB_OUT=/tmp/db-b.out WL_SEED=$((WL_SEED + 1000)) round "$1/b" "$2" & b=$!
  wait $a || return 1
  wait $b || return 1
}
job_run() { wl_rounds both "$1"; }
