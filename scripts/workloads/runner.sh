#!/bb/sh
# runner.sh NAME - runs one recorded workload inside the application root
# (scripts/workloads/guest_init.sh chroots here). Sources /jobs/NAME.sh, which
# sets MKFS_OPTS and MOUNT_OPTS (empty = the defaults), FSTRIM (1: fstrim
# after the run) and defines job_run DIR. Steps, each printed as `STEP name`
# and failing as `GUEST-FAIL: step name: why`: mkfs (mkfs.ext4 MKFS_OPTS on
# /dev/vda, the export), mount, run (the application), sync, fstrim, umount,
# marker (a 12 KiB O_DIRECT read of the device's last 12 KiB: the host cuts
# the recording there, so what follows is not the workload's), fsck
# (`e2fsck -fn`, must be clean). The job gets WL_DATA_MIB (the application's
# data set), WL_WRITE_MIB (what it should write to the device in all),
# WL_SEED, WL_DISCARD, WL_DRIVE_MIB, wl_written_mib (MiB written to /dev/vda so far,
# from /sys/block/vda/stat) and wl_rounds (repeat a round until WL_WRITE_MIB).
export PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/bb HOME=/tmp LC_ALL=C
name=$1
die() { echo "GUEST-FAIL: step $step: $*"; exit 1; }
step=job
. "/jobs/$name.sh" || die "source /jobs/$name.sh"
WL_DRIVE_MIB=$(($(cat /sys/block/vda/size) / 2048))
export WL_DRIVE_MIB WL_SEED=${WL_SEED:-1}
export WL_DATA_MIB=${WL_DATA_MIB:-$((WL_DRIVE_MIB * 55 / 100))} WL_WRITE_MIB=${WL_WRITE_MIB:-$((WL_DRIVE_MIB * 2))}
# WL_DISCARD=1 adds the `discard` mount option to any job: the file system
# discards each deleted extent at once, so the recording carries every delete
# (a replay can then hold them for a host TRIM policy: workload.trace_discards).
[ "${WL_DISCARD:-0}" = 1 ] && MOUNT_OPTS="${MOUNT_OPTS:+$MOUNT_OPTS,}discard"
# WL_MKFS_NODISCARD=1 makes the file system without mke2fs's whole-device
# discard (-E nodiscard), so a drive preconditioned as used stays used (the
# live runs of docs/results/live-vs-replay.md, which compare with replays
# made with the recording's leading discards dropped).
[ "${WL_MKFS_NODISCARD:-0}" = 1 ] && MKFS_OPTS="${MKFS_OPTS:+$MKFS_OPTS }-E nodiscard"
wl_written_mib() { echo $(($(awk '{print $7}' /sys/block/vda/stat) / 2048)); }
# wl_rounds CMD...: runs CMD... ROUND for ROUND = 0, 1, ... until the device
# has taken WL_WRITE_MIB of writes; prints `WL-ROUND n written=MiB` after each.
wl_rounds() {
  _r=0
  while [ "$(wl_written_mib)" -lt "$WL_WRITE_MIB" ]; do
    "$@" "$_r" || return 1
    echo "WL-ROUND $_r written=$(wl_written_mib)MiB"
    _r=$((_r + 1))
  done
}
# fbp_rounds PERSONALITY DIR ENTRIES KIB_PER_LOOP THREADS: our Filebench
# personalities (fbp) in wl_rounds, each round about WL_DATA_MIB / 2 of
# writes (loops per thread from the personality's KiB written per loop), seed
# WL_SEED+round, the file set kept between rounds.
fbp_round() { fbp "$1" "$2" nfiles="$3" loops="$4" seed=$((WL_SEED + $5)); }
fbp_rounds() {
  _l=$((WL_DATA_MIB * 1024 / 2 / $4 / $5))
  wl_rounds fbp_round "$1" "$2" "$3" $((_l > 0 ? _l : 1))
}
up() { cut -d' ' -f1 /proc/uptime; }
echo "WL-PARAMS job=$name drive=${WL_DRIVE_MIB}MiB data=${WL_DATA_MIB}MiB write=${WL_WRITE_MIB}MiB seed=$WL_SEED"
step=mkfs; echo "STEP mkfs: mkfs.ext4 $MKFS_OPTS /dev/vda"
# shellcheck disable=SC2086
mkfs.ext4 -F $MKFS_OPTS /dev/vda >/tmp/mkfs.txt 2>&1 || die "$(tail -3 /tmp/mkfs.txt)"
step=mount; echo "STEP mount: ${MOUNT_OPTS:-defaults}"
mount -t ext4 ${MOUNT_OPTS:+-o $MOUNT_OPTS} /dev/vda /mnt || die "mount"
grep " /mnt " /proc/mounts
step=run; t0=$(up); echo "STEP run at $t0"
job_run /mnt || die "the application failed (exit $?)"
step=sync; sync || die sync
echo "WL-RUN-SECONDS $t0 $(up) written=$(wl_written_mib)MiB"
df -m /mnt | tail -1
if [ "${FSTRIM:-0}" = 1 ]; then step=fstrim; fstrim -v /mnt || die fstrim; fi
dmesg | grep -i -E 'EXT4-fs (error|warning)|I/O error|blk_update_request' && { step=run; die "kernel reported file system or I/O errors"; }
step=umount; umount /mnt || die umount
sync
cat /sys/block/vda/stat | awk '{print "WL-BLOCKSTAT reads=" $1 " read_sectors=" $3 " writes=" $5 " write_sectors=" $7 " discards=" $12 " discard_sectors=" $14 " flushes=" $16}'
step=marker
dd if=/dev/vda of=/dev/null bs=12288 count=1 skip=$((WL_DRIVE_MIB * 1048576 - 12288)) iflag=skip_bytes,direct 2>/dev/null || die "marker read"
step=fsck; e2fsck -fn /dev/vda >/tmp/fsck.txt 2>&1 || die "e2fsck -fn not clean: $(tail -5 /tmp/fsck.txt)"
tail -1 /tmp/fsck.txt
echo "WL-MKFS $(head -c 400 /tmp/mkfs.txt | tr '\n' ' ')"
echo "WL-DONE"
