# rocksdb - the seeds' RocksDB runs: Debian's db_bench (rocksdb-tools 7.8),
# fillrandom, then overwrite rounds, on ext4.
# File system: mke2fs defaults, the kernel's mount defaults (ordered journal,
# no discard), fstrim after the run (RocksDB deletes every compacted SST
# file; the trims are where the drive learns of it).
# Job: keys of 16 bytes, values of 1000 bytes (db_bench's defaults), no
# compression (--compression_type=none, so the data set on the drive is the
# keys and values: WL_DATA_MIB of them), one thread, the WAL on (db_bench's
# default, no fsync per write: --sync=0), db_bench's default memtable and
# leveled compaction (64 MiB write buffer, 10x per level). Round 0:
# fillrandom of num = WL_DATA_MIB / 1016 B keys; rounds 1..: overwrite of num
# keys on the existing database (--use_existing_db=1), --seed=WL_SEED+round,
# until the device has taken WL_WRITE_MIB of writes.
ROOT_SET=rocksdb
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=1
job_run() {
  num=$((WL_DATA_MIB * 1048576 / 1016)) r=0
  while [ "$(wl_written_mib)" -lt "$WL_WRITE_MIB" ]; do
    if [ $r -eq 0 ]; then b=fillrandom e=0; else b=overwrite e=1; fi
    db_bench --benchmarks=$b --use_existing_db=$e --db="$1/db" --num=$num --key_size=16 --value_size=1000 \
      --compression_type=none --threads=1 --sync=0 --seed=$((WL_SEED + r)) --statistics=0 --histogram=0 \
      >/tmp/db.out 2>&1 || { tail -5 /tmp/db.out; return 1; }
    echo "WL-ROUND $r $b written=$(wl_written_mib)MiB $(grep -E "^$b " /tmp/db.out | tr -s ' ')"
    r=$((r + 1))
  done
}
