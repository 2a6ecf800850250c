# dbench - the packaged cross-check of the Filebench file-server
# personalities (fbp's): Debian's dbench 4.0 replaying its NetBench load file
# (/usr/share/dbench/client.txt: the file operations, with their sizes and
# offsets, of Windows clients on a Samba file server: creates, writes, reads,
# renames, deletes, flushes), WL_CLIENTS clients (default 8), each in its own
# directory tree. dbench makes no random choice (WL_SEED is recorded but does
# not change the operations); its data set is what the load file creates,
# about 25 MiB a client, not WL_DATA_MIB.
# File system: mke2fs defaults, the kernel's mount defaults (ordered journal,
# no discard), no fstrim.
# Job: rounds of `dbench -t 20` (20 s of guest time; under TCG a round writes
# far less than natively) until the device has taken WL_WRITE_MIB of writes.
ROOT_SET=full
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=0
round() { # DIR ROUND
  dbench -D "$1" -c /usr/share/dbench/client.txt -t 20 "${WL_CLIENTS:-8}" >/tmp/db.out 2>&1 ||
    { tail -5 /tmp/db.out; return 1; }
  sync
  echo "WL-DBENCH round $2: $(grep -E '^Throughput' /tmp/db.out)"
}
job_run() {
  mkdir -p "$1/db" || return 1
  wl_rounds round "$1/db"
}
