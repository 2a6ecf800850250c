#!/usr/bin/env bash
# build-initramfs.sh OUTDIR [INIT [FILE...]] - the Linux guest of the NBD tests
# (docs/models/nbd.md): Debian's kernel (linux-image-amd64, fetched with
# `apt-get download` and unpacked, not installed) and a busybox initramfs with
# the virtio and ext4 modules, scripts/guest/guest_init.sh as /init and
# scripts/guest/guest_boot.sh (what every /init sources first). Writes
# OUTDIR/vmlinuz and OUTDIR/initramfs.cpio.gz; reuses a kernel already in
# OUTDIR. With INIT (another /init) and FILEs (copied to / under their own
# names), the initramfs is OUTDIR/initramfs-<INIT's name without .sh>.cpio.gz.
# Needs busybox-static (its cpio too) and gzip; exit 77 when something is missing.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
init=${2:-$here/guest_init.sh} image=initramfs.cpio.gz
[ $# -lt 2 ] || image=initramfs-$(basename "$init" .sh).cpio.gz
extra=("${@:3}")
for f in "$init" "${extra[@]}"; do [ -f "$f" ] || { echo "FAIL: $f: no such file"; exit 1; }; done
bb=$(command -v busybox || true)
[ -n "$bb" ] && file -L "$bb" 2>/dev/null | grep -q "statically linked" || [ -x /bin/busybox ] || { echo "SKIP: busybox-static not installed"; exit 77; }
bb=/bin/busybox
mods="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_blk crc16 mbcache jbd2 crc32c_generic ext4"
if [ ! -f "$out/vmlinuz" ] || [ ! -d "$out/modules" ]; then
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
  [ -n "$pkg" ] || { echo "SKIP: cannot name Debian's kernel package (apt-cache depends linux-image-amd64)"; exit 77; }
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1) || { rm -rf "$tmp"; echo "SKIP: apt-get download $pkg failed (offline?)"; exit 77; }
  dpkg-deb -x "$tmp"/*.deb "$tmp/x"
  cp "$tmp"/x/boot/vmlinuz-* "$out/vmlinuz"
  mkdir -p "$out/modules"
  for m in $mods; do
    f=$(find "$tmp"/x/lib/modules -name "$m.ko*" | head -1)
    [ -n "$f" ] || { echo "FAIL: module $m not in $pkg"; exit 1; }
    case $f in *.xz) xz -dc "$f" >"$out/modules/$m.ko" ;; *.zst) zstd -qdc "$f" >"$out/modules/$m.ko" ;; *) cp "$f" "$out/modules/$m.ko" ;; esac
  done
  echo "$pkg" >"$out/kernel-package"
  rm -rf "$tmp"
fi
root=$(mktemp -d)
mkdir -p "$root"/{bin,dev,proc,sys,mnt,lib/modules}
cp "$bb" "$root/bin/busybox"
cp "$out"/modules/*.ko "$root/lib/modules/"
echo "$mods" >"$root/lib/modules/order"
cp "$init" "$root/init"
cp "$here/guest_boot.sh" "$root/guest_boot.sh"
for f in "${extra[@]}"; do cp "$f" "$root/"; done
chmod +x "$root/init"
(cd "$root" && find . | "$bb" cpio -o -H newc 2>/dev/null | gzip -1 >"$out/$image")
rm -rf "$root"
echo "guest: $out/vmlinuz ($(cat "$out/kernel-package")), $out/$image"
