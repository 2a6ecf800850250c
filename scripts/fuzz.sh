#!/usr/bin/env bash
# Builds the libFuzzer harnesses (testbench/fuzz, clang with ASan+UBSan) in
# build-fuzz/ and runs each for a bounded time (docs/robustness.md).
#   FUZZ_SECONDS (default 20): seconds per harness;
#   FUZZ_JOBS (default 1): parallel fuzzing processes per harness;
#   arguments: the harnesses to run (default all: trace config nvme_decode accel_regs nbd_request).
# Each harness starts from its seed corpus (testbench/fuzz/corpus/<name>) and
# keeps what it finds in build-fuzz/corpus/<name>; a crash is written to
# build-fuzz/artifacts/<name>/ and ends the script with exit 1: minimise it,
# fix the bug and add the input to testbench/fuzz/regressions/<name>/, which
# ctest replays (FuzzReplay.<name>).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${FUZZ_SECONDS:-20}
jobs=${FUZZ_JOBS:-1}
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(trace config nvme_decode accel_regs nbd_request)

cc=$(command -v clang-14 || command -v clang || true)
cxx=$(command -v clang++-14 || command -v clang++ || true)
# clang alone is not enough: libFuzzer and the sanitizers' runtimes are in
# libclang-rt-14-dev, which a machine with clang installed by hand may lack.
rt_ok=0
dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q "install ok installed" && rt_ok=1
if [ -z "$cc" ] || [ -z "$cxx" ] || [ "$rt_ok" = 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "fuzz: installing clang-14 and libclang-rt-14-dev (libFuzzer)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev
  cc=clang-14 cxx=clang++-14
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" -DSSDVP_FUZZ=ON -DSSDVP_TESTS=OFF -DSSDVP_BENCHMARKS=OFF \
  -DSSDVP_RTL=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target ssdvp_fuzzers

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
status=0
for h in "${harnesses[@]}"; do
  bin=$build/testbench/fuzz/fuzz_$h
  [ -x "$bin" ] || { echo "fuzz: no harness '$h'" >&2; exit 2; }
  mkdir -p "$build/corpus/$h" "$build/artifacts/$h"
  par=()
  [ "$jobs" -le 1 ] || par=(-jobs="$jobs" -workers="$jobs")
  echo "fuzz: $h for ${seconds}s"
  # -timeout: one input running 10 s is a hang; -rss_limit_mb: a leak or a
  # runaway allocation. The output's last "#N DONE cov: C ft: F" line gives
  # the executions and the coverage (edges) reached.
  if ! (cd "$build/artifacts/$h" && "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        "${par[@]}" -print_final_stats=1 -artifact_prefix="$build/artifacts/$h/" \
        "$build/corpus/$h" "$root/testbench/fuzz/corpus/$h" 2>"$build/artifacts/$h/log.txt"); then
    status=1
    echo "fuzz: $h FAILED; see $build/artifacts/$h/" >&2
    grep -E "ERROR|SUMMARY|property broken|Test unit written" "$build/artifacts/$h/log.txt" | head -20 >&2 || true
  fi
  grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb" "$build/artifacts/$h/log.txt" | tail -3 || true
done
exit $status
