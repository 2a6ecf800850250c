#!/usr/bin/env bash
# build-root.sh OUTDIR [SET] - the application root of the recorded workloads
# (docs/results/workloads.md, scripts/workloads/record.sh): Debian's packages
# of the applications, unpacked (`apt-get download` + `dpkg-deb -x`, never
# installed; nothing is fetched outside the package registry), put into an
# ext4 image OUTDIR/root-SET.img that the guest attaches read-only as its
# second virtio disk (/dev/vdb) and chroots into.
#
# Why an image and not the initramfs: the kernel unpacks an initramfs whole
# at boot, in emulated instructions under TCG (gunzip of tens of MiB is
# minutes there), and keeps it all in the guest's RAM; a read-only ext4 image
# is read on demand, page by page, so a boot costs the same with fio alone or
# with MariaDB, and the guest's memory stays for the application's cache.
#
# SET names the applications (default `base`):
#   base     fio postmark e2fsprogs       (the fio-* and postmark workloads)
#   rocksdb  base + rocksdb-tools        (db_bench)
#   full     rocksdb + dbench sysbench mariadb-server, and the server and
#            client binaries it depends on (mariadb-server-core: mariadbd,
#            mariadb-install-db; mariadb-client-core, mariadb-client:
#            mariadb, mariadb-admin), which are not lib* packages
# The dependency closure: `apt-cache depends --recurse --no-recommends
# --no-suggests ...` of those packages, keeping only the applications
# themselves and the shared-library packages (names lib* and zlib1g, minus the perl and
# python interpreters' libraries, which no application here loads) plus
# gcc-12-base; the interpreters, dpkg, debconf, adduser and the like are
# install-time machinery the guest never runs. The result is checked, not
# trusted: every ELF executable of the applications must resolve all its
# shared libraries inside the root (the root's own loader, `--list`, chrooted), or the
# build fails naming the binary and the library. busybox (static, from the
# host's busybox-static) provides the shell and the utilities in /bb; fbp,
# our Filebench personalities (scripts/workloads/filebench/fbp.c), is built
# static with the host's gcc into /usr/local/bin.
# OUTDIR/packages-SET.txt lists `package version sha256-of-the-.deb`.
# Exit 77 when a tool is missing or a package cannot be fetched.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
set_name=${2:-base}
case $set_name in
  base) apps="fio postmark e2fsprogs" ;;
  rocksdb) apps="fio postmark e2fsprogs rocksdb-tools" ;;
  full) apps="fio postmark e2fsprogs rocksdb-tools dbench sysbench mariadb-server mariadb-server-core mariadb-client-core mariadb-client" ;;
  *) echo "FAIL: unknown set '$set_name' (base, rocksdb, full)"; exit 2 ;;
esac
for t in apt-get apt-cache dpkg-deb mkfs.ext4; do
  command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done
[ -x /bin/busybox ] && file -L /bin/busybox | grep -q "statically linked" || { echo "SKIP: busybox-static not installed"; exit 77; }
img=$out/root-$set_name.img
# Built once per OUTDIR and set (the .debs are kept in OUTDIR/debs); ROOT_REBUILD=1 rebuilds.
if [ -f "$img" ] && [ -f "$out/packages-$set_name.txt" ] && [ "${ROOT_REBUILD:-0}" != 1 ]; then
  echo "root: $img (built before; ROOT_REBUILD=1 rebuilds)"
  exit 0
fi
# shellcheck disable=SC2086
pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
  --no-enhances $apps 2>/dev/null | grep -v '^[ <]' | sort -u |
  grep -E '^(lib|zlib1g$|gcc-12-base$)' | grep -v -E '^lib(perl|python)' || true)
pkgs="$apps $pkgs"
debs=$out/debs
mkdir -p "$debs"
missing=()
for p in $pkgs; do ls "$debs/${p}_"*.deb >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  (cd "$debs" && apt-get download "${missing[@]}" >/dev/null 2>&1) ||
    { echo "SKIP: apt-get download failed for some of: ${missing[*]} (offline?)"; exit 77; }
fi
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
list=$out/packages-$set_name.txt.tmp
: >"$list"
for p in $pkgs; do
  deb=$(ls "$debs/${p}_"*.deb | sort -V | tail -1)
  dpkg-deb -x "$deb" "$root"
  echo "$p $(dpkg-deb -f "$deb" Version) $(sha256sum "$deb" | cut -d' ' -f1)" >>"$list"
done
# the root user and group, which servers that change ownership (MariaDB's
# mariadb-install-db, mariadbd --user=root) look up by name
mkdir -p "$root/etc"
[ -f "$root/etc/passwd" ] || echo "root:x:0:0:root:/tmp:/bb/sh" >"$root/etc/passwd"
[ -f "$root/etc/group" ] || echo "root:x:0:" >"$root/etc/group"
# busybox applets in /bb (after the packages' own binaries on PATH)
mkdir -p "$root/bb" "$root"/{proc,sys,dev,tmp,run,mnt,jobs,var/tmp}
cp /bin/busybox "$root/bb/busybox"
for a in $("$root/bb/busybox" --list); do [ "$a" = busybox ] || ln -s busybox "$root/bb/$a"; done
# fbp (scripts/workloads/filebench/fbp.c: Filebench's personalities, ours,
# since Filebench is not packaged), static, in /usr/local/bin
if command -v gcc >/dev/null 2>&1; then
  mkdir -p "$root/usr/local/bin"
  gcc -O2 -static -pthread -o "$root/usr/local/bin/fbp" "$(dirname "$0")/filebench/fbp.c" -lm ||
    { echo "FAIL: fbp does not build"; exit 1; }
  echo "fbp (ours) $(sha256sum "$(dirname "$0")/filebench/fbp.c" | cut -d' ' -f1)" >>"$list"
else
  echo "NOTE: no gcc: the filebench-* jobs cannot run in this root"
fi
# the shared-library check: each application's executables resolve in the root
# (chrooted, so the host's libraries cannot stand in)
for p in $apps; do
  deb=$(ls "$debs/${p}_"*.deb | sort -V | tail -1)
  for f in $(dpkg-deb -c "$deb" | awk '$1 ~ /^-..x/ {print $6}' | sed 's|^\./||'); do
    file -L "$root/$f" | grep -q 'ELF.*dynamically linked' || continue
    bad=$(chroot "$root" /lib64/ld-linux-x86-64.so.2 --list "/$f" 2>&1 | grep -E 'not found|error while loading' || true)
    [ -z "$bad" ] || { echo "FAIL: $p: /$f: $bad"; exit 1; }
  done
done
# The image: the files' size plus a quarter, at least 64 MiB, read-only in the guest.
mb=$(du -sm "$root" | cut -f1)
rm -f "$img"
mkfs.ext4 -q -F -L approot -d "$root" "$img" "$((mb * 5 / 4 + 64))M"
mv "$list" "$out/packages-$set_name.txt"
echo "root: $img ($(wc -l <"$out/packages-$set_name.txt") packages, $mb MiB of files)"
