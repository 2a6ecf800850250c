#!/bin/busybox sh
# /init of the NBD test guest (scripts/guest/build-initramfs.sh): loads the
# virtio and ext4 modules, mounts the ext4 file system on the export
# (/dev/vda), copies, deletes and rewrites files, syncs, runs fstrim, prints
# the surviving files' SHA-256 between markers for the host to check, and
# powers off.
. /guest_boot.sh
mount -t ext4 /dev/vda /mnt || fail "mount"
mkdir -p /mnt/data /mnt/copy || fail "mkdir"
# write: 24 files of 64 KiB to 2 MiB
n=1
while [ $n -le 24 ]; do
  dd if=/dev/urandom of=/mnt/data/f$n bs=64k count=$(( (n * 7) % 32 + 1 )) 2>/dev/null || fail "write f$n"
  n=$((n + 1))
done
sync
cp -a /mnt/data/. /mnt/copy/ || fail "copy"
sync
# delete every third original and half the copies, then rewrite some
n=1
while [ $n -le 24 ]; do
  [ $((n % 3)) -eq 0 ] && rm /mnt/data/f$n
  [ $((n % 2)) -eq 0 ] && rm /mnt/copy/f$n
  n=$((n + 1))
done
sync
for n in 1 2 4 5; do dd if=/dev/urandom of=/mnt/data/f$n bs=128k count=3 conv=fsync 2>/dev/null || fail "rewrite f$n"; done
echo "a small file, written last" >/mnt/notes.txt
sync
fstrim -v /mnt || echo "GUEST-NOTE: fstrim failed"
echo "GUEST-SUMS-BEGIN"
cd /mnt && find data copy notes.txt -type f | sort | xargs sha256sum
echo "GUEST-SUMS-END"
cd /
umount /mnt || fail "umount"
sync
echo "GUEST-OK"
poweroff -f
