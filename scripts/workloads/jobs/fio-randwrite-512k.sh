# fio-randwrite-512k - seed 000's job: 512 KiB random writes on ext4, with
# files deleted and re-created between rounds so that TRIM has work.
# File system: mke2fs defaults (which discard the whole device first), mounted
# with `discard` (online discard: every freed extent is TRIMmed when its
# transaction commits).
# Job: 8 files of WL_DATA_MIB/8 each (fio --nrfiles=8, the data set);
# rounds of `fio --rw=randwrite --bs=512k --direct=1 --ioengine=libaio
# --iodepth=8 --file_service_type=random --io_size=WL_DATA_MIB/2` with
# --randseed=WL_SEED+round (fio's own layout of missing files included);
# after each round two of the eight files (rotating) are deleted, so the next
# round lays them out afresh. Rounds until the device has taken WL_WRITE_MIB
# of writes (/sys/block/vda/stat), then one sync.
ROOT_SET=base
MKFS_OPTS=""
MOUNT_OPTS="discard"
FSTRIM=0
round() { # DIR ROUND
  fio --name=rw --directory="$1" --nrfiles=8 --size="${WL_DATA_MIB}m" --rw=randwrite --bs=512k --direct=1 \
    --ioengine=libaio --iodepth=8 --file_service_type=random --io_size=$((WL_DATA_MIB / 2))m \
    --randseed=$((WL_SEED + $2)) --output-format=terse --terse-version=3 >/tmp/fio.out || return 1
  rm -f "$1/rw.0.$(((2 * $2) % 8))" "$1/rw.0.$(((2 * $2 + 1) % 8))"
}
job_run() { mkdir -p "$1/fio" && wl_rounds round "$1/fio"; }
