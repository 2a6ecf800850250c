# fio-journal - seed 004's job: small random overwrites of a preallocated
# file through the page cache with an fsync every N writes (N = 32, not every
# write: the journal commits of ext4 come from fsync and from its 5 s commit
# timer both).
# File system: mke2fs defaults, the kernel's mount defaults (ordered data
# journal, no discard), no fstrim.
# Job: one file of WL_DATA_MIB laid out by fio (written once, sequentially),
# then rounds of `fio --rw=randwrite --bs=4k --ioengine=psync --fsync=32
# --io_size=WL_DATA_MIB/4` with --randseed=WL_SEED+round, until the device has
# taken WL_WRITE_MIB of writes; after each round `WL-APP` gives fio's own
# write KiB;KiB/s;IOPS;runtime ms.
ROOT_SET=base
MKFS_OPTS=""
MOUNT_OPTS=""
FSTRIM=0
round() { # DIR ROUND
  fio --name=journal --directory="$1" --size="${WL_DATA_MIB}m" --rw=randwrite --bs=4k --ioengine=psync \
    --fsync=32 --io_size=$((WL_DATA_MIB / 4))m --randseed=$((WL_SEED + $2)) --output-format=terse \
    --terse-version=3 >/tmp/fio.out || return 1
  # The application's own view of the round (fio's terse v3 line: write KiB,
  # bandwidth KiB/s, IOPS and runtime ms are its fields 47-50), for live runs.
  echo "WL-APP $(cut -d';' -f47-50 /tmp/fio.out | head -1)"
}
job_run() { wl_rounds round "$1"; }
