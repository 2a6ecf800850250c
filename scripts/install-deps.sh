#!/usr/bin/env bash
# Installs everything ssdvp needs on a fresh Debian 12 machine (idempotent).
# Run as root (or with sudo available). Package list and reasons: docs/dependencies.md.
# verilator and yosys: the accelerator's RTL co-simulation and synthesis;
# Eigen: the K-Means reference of a firmware test.
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config
      libsystemc-dev libboost-dev libboost-program-options-dev
      libgtest-dev libgmock-dev libbenchmark-dev libeigen3-dev
      libyaml-cpp-dev nlohmann-json3-dev zlib1g-dev liblzma-dev
      verilator yosys
      libunicorn-dev gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
      clang-format clang-tidy python3-flake8  # scripts/lint.sh (CI)
      libnbd-bin qemu-utils fio  # real NBD clients of ssdvp serve (testbench/nbd)
      qemu-system-x86 busybox-static)  # its Linux guest test (scripts/guest/build-initramfs.sh)
# The exploration tooling's packages (explore/, testbench/explore/).
here=$(cd "$(dirname "$0")" && pwd)
while read -r p; do
  case "$p" in ''|'#'*) ;; *) PKGS+=("$p") ;; esac
done < "$here/python-deps.txt"
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
