# rocksdb - the seeds' RocksDB runs: Debian's db_bench (rocksdb-tools 7.8),
# fillrandom, then overwrite rounds, on ext4.
# File system: mke2fs defaults, the kernel's mount defaults (ordered journal,
# no discard), fstrim after the run (RocksDB deletes every compacted SST
# file; the trims are where the drive learns of it).
# Job: keys of 16 bytes, values of 1000 bytes (db_bench's defaults), no
# compression (--compression_type=none, so the data set on the drive is the
# keys and values: WL_DATA_MIB of them), one thread, the WAL on (db_bench's
# default, no fsync per write: --sync=0), leveled compaction with 16 MiB
# memtables and SST files and a 64 MiB level 1 (10x per level): with
# db_bench's defaults (64 MiB, 64 MiB, 256 MiB) an L0->L1 compaction needs
# about 512 MiB of free space at once, and a data set of half a 1 GiB drive
# ran out of space in the first overwrite. Round 0:
# fillrandom of num = WL_DATA_MIB / 1016 B keys; rounds 1..: overwrite of num
# keys on the existing database (--use_existing_db=1), --seed=WL_SEED+round,
# until the device has taken WL_WRITE_MIB of writes. DB_OUT (default
# /tmp/db.out): where db_bench's output goes (rocksdb-x2.sh runs two).
ROOT_SET=rocksdb
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=1
round() { # DIR ROUND
  if [ "$2" -eq 0 ]; then b=fillrandom e=0; else b=overwrite e=1; fi
  db_bench --benchmarks=$b --use_existing_db=$e --db="$1" --num=$((WL_DATA_MIB * 1048576 / 1016)) --key_size=16 \
    --value_size=1000 --compression_type=none --threads=1 --sync=0 --seed=$((WL_SEED + $2)) --statistics=0 \
    --histogram=0 --write_buffer_size=$((16 << 20)) --target_file_size_base=$((16 << 20)) \
    --max_bytes_for_level_base=$((64 << 20)) >"${DB_OUT:=/tmp/db.out}" 2>&1 || { grep -i -E 'error|corrupt|space' "$DB_OUT"; return 1; }
  echo "WL-DBBENCH $1 $(grep -E "^$b " "$DB_OUT" | tr -s ' ')"
}
job_run() { wl_rounds round "$1/db"; }
