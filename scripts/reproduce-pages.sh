#!/bin/bash
# Regenerate every results page (docs/results/) by one command.
#
#   bash scripts/reproduce-pages.sh [--render-only | --quick] [--list] [PAGE...]
#
#   (default)      rerun each page's regenerate command (scripts/results_pages.py list:
#                  explore pages through `explore/ssdvp-explore reproduce`, the others
#                  through their scripts), then re-render and run the page test.
#                  Needs build/platform/ssdvp built from the checked-out commit with no
#                  uncommitted changes (a page's provenance says otherwise, and the
#                  page test fails on it).
#   --render-only  run nothing: re-render every page from its committed data and run
#                  the page test (a few seconds).
#   --quick        the smoke variants of the pages that have one (journal, streams: shorter runs; never
#                  commit their output); pages without one are re-rendered only.
#   --list         each page, its kind, its command and its cost as its data records it.
#
# Each command's wall time and the load average are printed as it ends, so the
# costs on the pages can be checked against this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
# The pages' commands say `python3`: Debian's, which carries scripts/python-deps.txt's
# packages (numpy, matplotlib). A python3 earlier on PATH (a pyenv or venv one) may lack
# them and fail or draw no figures, so /usr/bin comes first.
export PATH="/usr/bin:$PATH"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
mode=full; pages=()
for a in "$@"; do
  case "$a" in
    --render-only) mode=render ;;
    --quick) mode=quick ;;
    --list) "$PY" scripts/results_pages.py list | column -t -s $'\t'; exit 0 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "reproduce-pages: unknown option $a" >&2; exit 2 ;;
    *) pages+=("$a") ;;
  esac
done

if [ "$mode" != render ]; then
  summary=()
  while IFS=$'\x1f' read -r name kind regen quick _cost; do
    if [ ${#pages[@]} -gt 0 ] && [[ ! " ${pages[*]} " == *" $name "* ]]; then continue; fi
    cmd=$regen
    [ "$mode" = quick ] && cmd=$quick
    if [ -z "$cmd" ] || [ "$kind" = notes ]; then
      summary+=("$name: rendered only"); continue
    fi
    case "$cmd" in see\ *) summary+=("$name: no command ($cmd)"); continue ;; esac
    echo "== $name: $cmd" >&2
    t0=$(date +%s)
    rc=0; bash -c "$cmd" || rc=$?
    t=$(( $(date +%s) - t0 ))
    summary+=("$name: ${t} s wall, rc=$rc, load $(cut -d' ' -f1-3 /proc/loadavg)")
  done < <("$PY" scripts/results_pages.py list --machine)
  printf '%s\n' "${summary[@]}" >&2
fi
"$PY" scripts/results_pages.py render "${pages[@]}"
"$PY" scripts/results_pages.py check "${pages[@]}"
