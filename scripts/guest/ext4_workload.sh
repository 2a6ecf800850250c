#!/bin/busybox sh
# ext4_workload.sh DIR - a parameterised, fsync-heavy file workload for the
# Linux guest on the simulated drive (scripts/guest/workload_init.sh runs it
# on the ext4 mounted at DIR; scripts/guest/record-ext4-session.sh records
# it; docs/results/journal_ext4_real.md replays it). Busybox only. Each round
# does three things, the shapes of docs/results/journal.md's workloads:
#   varmail-like: WL_MAIL_OPS times: delete a random mail file, create one of
#     4..28 KiB and fsync it, append 4..8 KiB to another and fsync it, read a
#     third (a pool of WL_MAIL_FILES files);
#   fio-like: WL_FIO_OPS random 4 KiB in-place overwrites of a WL_FIO_MB MiB
#     file, each fsync'd (fio --rw=randwrite --bs=4k --fsync=1);
#   fileserver-like: write one file of 1..WL_BULK_MAX_MB MiB without fsync and
#     delete the oldest beyond WL_BULK_FILES (no discard: deleted blocks stay
#     mapped on the drive, as the model's host.trim.policy: none).
# Parameters are environment variables (the kernel passes `name=value`
# arguments of its command line to /init): WL_ROUNDS WL_MAIL_FILES WL_MAIL_OPS
# WL_FIO_MB WL_FIO_OPS WL_BULK_FILES WL_BULK_MAX_MB WL_SEED. Prints
# `WL-ROUND n` per round and `WL-DONE` at the end.
set -u
d=${1:?usage: ext4_workload.sh DIR}
rounds=${WL_ROUNDS:-20}
mail_files=${WL_MAIL_FILES:-400}
mail_ops=${WL_MAIL_OPS:-100}
fio_mb=${WL_FIO_MB:-64}
fio_ops=${WL_FIO_OPS:-200}
bulk_files=${WL_BULK_FILES:-16}
bulk_max=${WL_BULK_MAX_MB:-8}
RANDOM=${WL_SEED:-1}
rnd() { echo $(((RANDOM * 32768 + RANDOM) % $1)); } # 0 .. $1-1
die() { echo "WL-FAIL: $*"; exit 1; }
mkdir -p "$d/mail" "$d/fio" "$d/bulk" || die mkdir
echo "WL-SETUP mail=$mail_files fio=${fio_mb}MiB"
i=0
while [ $i -lt "$mail_files" ]; do
  dd if=/dev/urandom of="$d/mail/m$i" bs=4k count=$(($(rnd 7) + 1)) 2>/dev/null || die "mail m$i"
  i=$((i + 1))
done
dd if=/dev/zero of="$d/fio/big" bs=1M count="$fio_mb" 2>/dev/null || die "fio file"
sync
fio_blocks=$((fio_mb * 256))
b=0 r=1
while [ $r -le "$rounds" ]; do
  echo "WL-ROUND $r"
  k=0
  while [ $k -lt "$mail_ops" ]; do
    f=$(rnd "$mail_files")
    rm -f "$d/mail/m$f"
    dd if=/dev/urandom of="$d/mail/m$f" bs=4k count=$(($(rnd 7) + 1)) conv=fsync 2>/dev/null || die "create m$f"
    f=$(rnd "$mail_files")
    dd if=/dev/urandom of="$d/mail/m$f" bs=4k count=$(($(rnd 2) + 1)) oflag=append conv=notrunc,fsync 2>/dev/null ||
      die "append m$f"
    cat "$d/mail/m$(rnd "$mail_files")" >/dev/null 2>&1
    k=$((k + 1))
  done
  k=0
  while [ $k -lt "$fio_ops" ]; do
    dd if=/dev/urandom of="$d/fio/big" bs=4k count=1 seek="$(rnd $fio_blocks)" conv=notrunc,fsync 2>/dev/null ||
      die "fio write"
    k=$((k + 1))
  done
  dd if=/dev/urandom of="$d/bulk/b$b" bs=1M count=$(($(rnd "$bulk_max") + 1)) 2>/dev/null || die "bulk b$b"
  rm -f "$d/bulk/b$((b - bulk_files))"
  b=$((b + 1)) r=$((r + 1))
done
sync
echo "WL-DONE"
