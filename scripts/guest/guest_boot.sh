# guest_boot.sh - sourced by every guest /init (scripts/guest/build-initramfs.sh
# puts it in the initramfs as /guest_boot.sh): busybox's applets, /proc, /sys,
# /dev, the virtio and ext4 modules, and a wait of up to 60 s for the export
# (/dev/vda); defines fail MSG (prints GUEST-FAIL and powers off).
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /lib/modules/order); do insmod /lib/modules/$m.ko || echo "GUEST-NOTE: insmod $m failed"; done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ -b /dev/vda ] || { ls /sys/bus/virtio/devices /sys/block; cat /proc/partitions; }
fail() { echo "GUEST-FAIL: $*"; poweroff -f; }
