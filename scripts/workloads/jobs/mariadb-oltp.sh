# mariadb-oltp - the streams seed's MySQL runs with what Debian packages:
# MariaDB 10.11's server (InnoDB) under sysbench 1.0's OLTP read-write
# transactions. The seed ran TPC-C; Debian has no TPC-C kit (sysbench-tpcc
# is Percona's Lua scripts, not packaged), so this is sysbench's own mix:
# each transaction 10 point selects, 4 range reads, 2 updates, a delete
# and an insert on one of TABLES tables, under a uniform-ish key choice
# (sysbench's default `special` distribution: a hot 1 % of keys).
# File system: mke2fs defaults, the kernel's mount defaults (ordered
# journal, no discard), no fstrim (InnoDB never deletes its files).
# Server: mariadbd with no option file, the data directory on the drive,
# InnoDB with O_DIRECT (data pages bypass the page cache), a redo log of
# 64 MiB flushed at every commit (innodb_flush_log_at_trx_commit=1, the
# durable default), the doublewrite buffer on (default) and a buffer pool
# of BP_MIB (the data set is several times larger, so dirty pages are
# written back and read again as on a server whose database outgrows RAM).
# Job (the guest needs GUEST_MEM above BP_MIB plus the server, 1024 is
# plenty): mariadb-install-db (--force: the guest has no resolver and needs
# none, the server listens on a socket only); the server; `sysbench oltp_read_write prepare`
# of TABLES tables of ROWS rows, ROWS = WL_DATA_MIB / 256 B / TABLES
# (a sysbench row with its secondary index takes about 256 B in InnoDB);
# then rounds of `sysbench oltp_read_write run` for RUN_S seconds with
# THREADS client threads, --rand-seed=WL_SEED+round, until the device has
# taken WL_WRITE_MIB of writes; then a clean shutdown.
ROOT_SET=full
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=0
SOCK=/run/mysqld/mysqld.sock
TABLES=8 THREADS=4 RUN_S=60 BP_MIB=64
ROWS=$((WL_DATA_MIB * 1048576 / 256 / TABLES))
sb() { # SCRIPT ARGS... (sysbench's connection and table options)
  sysbench "$@" --db-driver=mysql --mysql-socket=$SOCK --mysql-user=root --mysql-db=sbtest \
    --tables=$TABLES --table-size=$ROWS
}
round() { # ROUND
  sb oltp_read_write --threads=$THREADS --time=$RUN_S --rand-seed=$((WL_SEED + $1)) run >/tmp/sb.out 2>&1 ||
    { tail -5 /tmp/sb.out; return 1; }
  echo "WL-SYSBENCH round=$1 $(grep -E 'transactions:|queries:' /tmp/sb.out | tr -s ' ' | tr '\n' ' ')"
}
job_run() { # DIR
  mkdir -p /run/mysqld "$1/mysql"
  /bb/sh /usr/bin/mariadb-install-db --no-defaults --user=root --datadir="$1/mysql" \
    --auth-root-authentication-method=normal --skip-test-db --skip-name-resolve --force >/tmp/install.out 2>&1 ||
    { tail -5 /tmp/install.out; return 1; }
  mariadbd --no-defaults --user=root --datadir="$1/mysql" --socket=$SOCK --skip-networking \
    --innodb-buffer-pool-size=$((BP_MIB << 20)) --innodb-log-file-size=$((64 << 20)) \
    --innodb-flush-log-at-trx-commit=1 --innodb-flush-method=O_DIRECT --log-error=/tmp/mariadbd.err &
  i=0
  while [ ! -S $SOCK ] && [ $i -lt 1200 ]; do sleep 0.5; i=$((i + 1)); done
  [ -S $SOCK ] || { tail -5 /tmp/mariadbd.err; return 1; }
  mariadb --no-defaults -S $SOCK -uroot -e "CREATE DATABASE sbtest" || return 1
  sb oltp_read_write --threads=1 prepare >/tmp/prep.out 2>&1 || { tail -5 /tmp/prep.out; return 1; }
  echo "WL-PREPARED rows=$ROWS tables=$TABLES written=$(wl_written_mib)MiB"
  wl_rounds round || return 1
  mariadb-admin --no-defaults -S $SOCK -uroot shutdown || return 1
  wait
}
