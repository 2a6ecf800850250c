#!/usr/bin/env bash
# Lint, run by CI: firmware static checks (clang-tidy, .clang-tidy) and Python
# (flake8, .flake8). Exits non-zero on any finding.
#   LINT_FORMAT=1 also checks the C/C++ layout (clang-format, .clang-format);
#   CI sets it. `scripts/lint.sh --fix` rewrites the layout in place instead.
#   BUILD_DIR: a configured build tree (for compile_commands.json); default build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-$root/build}
fail=0

mapfile -t cfiles < <(git ls-files '*.c' '*.h' '*.cpp')
if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${cfiles[@]}"
  echo "lint: layout rewritten in ${#cfiles[@]} files"
  exit 0
fi

if [[ "${LINT_FORMAT:-0}" == 1 ]]; then
  echo "lint: clang-format on ${#cfiles[@]} files"
  clang-format --dry-run -Werror "${cfiles[@]}" || { echo "lint: layout differs (scripts/lint.sh --fix)"; fail=1; }
fi

echo "lint: clang-tidy on the firmware"
if [[ ! -f "$build/compile_commands.json" ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi
mapfile -t fwfiles < <(git ls-files 'firmware/ftl/*.c' 'firmware/drivers/*.c' 'firmware/hal/*.c')
clang-tidy --quiet -p "$build" "${fwfiles[@]}" || { echo "lint: clang-tidy findings above"; fail=1; }

echo "lint: flake8"
mapfile -t pyfiles < <(git ls-files '*.py')
/usr/bin/python3 -m flake8 "${pyfiles[@]}" || { echo "lint: flake8 findings above"; fail=1; }

exit $fail
