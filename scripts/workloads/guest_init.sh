#!/bin/busybox sh
# /init of the workload recorder's guest (scripts/workloads/record.sh builds
# it with scripts/guest/build-initramfs.sh): the virtio and ext4 modules
# (guest_boot.sh), then the application root (scripts/workloads/build-root.sh)
# from the second virtio disk /dev/vdb, mounted read-only, with /proc, /sys,
# /dev and tmpfs on /tmp, /run, /var/tmp and /jobs; copies the runner and the
# job (WL_JOB on the kernel command line names /jobs/WL_JOB.sh, with the jobs
# it sources) in and runs
# the runner chrooted. Markers: GUEST-FAIL: step ..., GUEST-OK.
. /guest_boot.sh
i=0
while [ ! -b /dev/vdb ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
mkdir -p /root
mount -t ext4 -o ro,noload /dev/vdb /root || fail "step root: mount /dev/vdb"
mount -t proc proc /root/proc && mount -t sysfs sys /root/sys && mount -t devtmpfs dev /root/dev || fail "step root: /proc /sys /dev"
for t in tmp run var/tmp jobs; do mount -t tmpfs -o mode=1777 tmp /root/$t || fail "step root: tmpfs /$t"; done
[ -f "/$WL_JOB.sh" ] || fail "step job: no job $WL_JOB"
cp /runner.sh "/$WL_JOB.sh" /root/jobs/ || fail "step job: copy"
# and the jobs it sources (`. /jobs/NAME.sh`: rocksdb-x2.sh takes rocksdb.sh's round)
for j in $(sed -n 's|^\. /jobs/\([a-z0-9-]*\.sh\).*|\1|p' "/$WL_JOB.sh"); do
  cp "/$j" /root/jobs/ || fail "step job: copy $j, which $WL_JOB.sh sources"
done
chroot /root /bb/sh /jobs/runner.sh "$WL_JOB" || fail "step runner"
echo "GUEST-OK"
poweroff -f
