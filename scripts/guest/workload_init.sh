#!/bin/busybox sh
# /init of the recording guest (scripts/guest/record-ext4-session.sh): loads
# the virtio and ext4 modules, mounts ext4 on the export (/dev/vda) with the
# kernel's defaults (ordered journal, no discard), runs
# /ext4_workload.sh on it (its WL_* parameters come from the kernel command
# line), then checks what it wrote: every file's SHA-256, the page cache
# dropped, every file read back from the drive and summed again; unmounts and
# powers off. Markers: GUEST-VERIFY-OK, GUEST-OK, GUEST-FAIL.
. /guest_boot.sh
mount -t ext4 /dev/vda /mnt || fail "mount"
grep " /mnt " /proc/mounts
start=$(cut -d' ' -f1 /proc/uptime)
sh /ext4_workload.sh /mnt || fail "workload"
echo "GUEST-WORKLOAD-SECONDS $start $(cut -d' ' -f1 /proc/uptime)"
cd /mnt && find . -type f | sort | xargs sha256sum >/sums.1 || fail "sums"
cd /
sync
echo 3 >/proc/sys/vm/drop_caches
cd /mnt && find . -type f | sort | xargs sha256sum >/sums.2 || fail "sums after drop_caches"
cd /
cmp -s /sums.1 /sums.2 || fail "files read back differ"
echo "GUEST-VERIFY-OK $(wc -l </sums.1) files"
df -k /mnt | tail -1
umount /mnt || fail "umount"
sync
echo "GUEST-OK"
poweroff -f
