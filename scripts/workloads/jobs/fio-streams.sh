# fio-streams - seed 002's job: four fio jobs at once, each in its own file
# (its own area of the drive) with its own block size and share of the
# writes, each with a hot region that moves.
# File system: mke2fs defaults, mounted with `discard`, no fstrim.
# Job: four files of WL_DATA_MIB/4 (fio --filename, --filesize per job); job k (0..3)
# writes blocks of 4, 16, 64, 256 KiB (direct, libaio, iodepth 4), with
# io_size in the ratio 1:2:3:4 (its write rate relative to the others), over
# a window of half its file (--size=50%) at offset (round x 10 %) mod 50 % of the file,
# with `--random_distribution=zoned:80/10:20/90` (80 % of the writes to the
# first tenth of the window: the hot region, which moves with the window each
# round). --randseed=WL_SEED+round+k. Rounds until the device has taken
# WL_WRITE_MIB of writes.
ROOT_SET=base
MKFS_OPTS=""
MOUNT_OPTS="discard"
FSTRIM=0
round() { # DIR ROUND
  d=$1 f=$((WL_DATA_MIB / 4)) r=$2
  set --
  for k in 0 1 2 3; do
    set -- "$@" --name=s$k --filename="$d/stream$k" --filesize="${f}m" --size=50% --offset=$(((r * 10) % 50))% \
      --bs=$((4 << (2 * k)))k --io_size=$((f * (k + 1) / 8))m --randseed=$((WL_SEED + r + k))
  done
  fio --rw=randwrite --direct=1 --ioengine=libaio --iodepth=4 --random_distribution=zoned:80/10:20/90 \
    --output-format=terse --terse-version=3 "$@" >/tmp/fio.out
}
job_run() { wl_rounds round "$1"; }
