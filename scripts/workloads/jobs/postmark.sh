# postmark - seed 003's PostMark row: Debian's postmark 1.53 (the NetApp
# benchmark: a pool of small files, transactions of read-or-append plus
# create-or-delete, all files deleted at the end).
# File system: mke2fs defaults, mounted with the kernel's defaults (ordered
# journal, no discard), no fstrim: the deleted files stay mapped on the drive.
# Job: files of 4 KiB .. 128 KiB (uniform, postmark's `set size`) in 16
# subdirectories, as many as make WL_DATA_MIB (mean 66 KiB), read/write
# blocks 4 KiB, unbuffered I/O (postmark's `set buffering false`: read/write
# system calls, no stdio), postmark's default biases (read 5 of 10, create 5
# of 10), `set seed WL_SEED+round`; transactions per round = files. Rounds
# (each: create the pool, the transactions, delete the pool) until the device
# has taken WL_WRITE_MIB of writes.
ROOT_SET=base
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=0
job_run() {
  n=$((WL_DATA_MIB * 1024 / 66)) r=0
  [ "$n" -ge 10 ] || n=10
  while [ "$(wl_written_mib)" -lt "$WL_WRITE_MIB" ]; do
    mkdir -p "$1/pm" || return 1
    printf '%s\n' "set location $1/pm" "set number $n" "set size 4096 131072" "set subdirectories 16" \
      "set read 4096" "set write 4096" "set buffering false" "set transactions $n" "set seed $((WL_SEED + r))" \
      "run" "quit" >/tmp/pm.cfg
    postmark /tmp/pm.cfg >/tmp/pm.out 2>&1 || { cat /tmp/pm.out; return 1; }
    sync
    echo "WL-ROUND $r written=$(wl_written_mib)MiB $(grep -E 'seconds total|transactions per second' /tmp/pm.out | tr '\n' ' ')"
    r=$((r + 1))
  done
}
