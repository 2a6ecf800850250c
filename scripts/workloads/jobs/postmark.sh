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
round() { # DIR FILES ROUND
  mkdir -p "$1" || return 1
  printf '%s\n' "set location $1" "set number $2" "set size 4096 131072" "set subdirectories 16" \
    "set read 4096" "set write 4096" "set buffering false" "set transactions $2" "set seed $((WL_SEED + $3))" \
    "run" "quit" >/tmp/pm.cfg
  postmark /tmp/pm.cfg >/tmp/pm.out 2>&1 || { cat /tmp/pm.out; return 1; }
  sync
  echo "WL-POSTMARK $(grep -E 'seconds total|transactions per second' /tmp/pm.out | tr '\n' ' ')"
}
job_run() {
  n=$((WL_DATA_MIB * 1024 / 66))
  [ "$n" -ge 10 ] || n=10
  wl_rounds round "$1/pm" "$n"
}
