#!/usr/bin/env bash
# Runs the same configs with two ssdvp binaries and compares every summary
# field and timeseries.csv byte (scripts/compare-summaries.py): the check for
# a change that must not change any result (a refactoring, a build change).
# The runs cover every way a run starts, is driven and is interrupted: the
# main job, the small drive, an array, flows, the open-channel and zoned
# personalities, the file-level host with its GC detector, the journal, one
# power cut and several.
#
#   scripts/compare-builds.sh OLD_SSDVP NEW_SSDVP [WORKDIR]
#
# Build the old binary from the commit before the change (a worktree), the new
# one from the change. Exit 0 when everything matches, 1 when anything differs
# or a run fails, 2 on a usage error. About two minutes on two cores.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: scripts/compare-builds.sh OLD_SSDVP NEW_SSDVP [WORKDIR] (two ssdvp binaries)" >&2
  exit 2
fi
old="$(realpath "$1")"
new="$(realpath "$2")"
work="${3:-$(mktemp -d)}"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
runs=(
  "default|-c configs/default.yaml"
  "small|-c configs/small.yaml"
  "raid|-c configs/raid.yaml"
  "flows|-c configs/flows.yaml"
  "open_channel|-c configs/open_channel.yaml"
  "zns|-c configs/zns.yaml"
  "gcdet|-c configs/gcdet.yaml"
  "journal|-c configs/journal.yaml --set host.time_limit=2s"
  "cut|-c configs/small.yaml --set power.cut_at=20ms"
  "cuts|-c configs/small.yaml --set power.cuts=3 --set power.cuts_span=50ms"
)
mkdir -p "$work"
cd "$root"
for side in old new; do
  bin="$old"
  [ "$side" = new ] && bin="$new"
  for r in "${runs[@]}"; do
    name="${r%%|*}"
    read -r -a args <<<"${r#*|}"
    if ! "$bin" run "${args[@]}" -q -o "$work/$side/$name" >"$work/$side-$name.log" 2>&1; then
      echo "compare-builds: the $side binary's $name run failed; see $work/$side-$name.log" >&2
      exit 1
    fi
  done
done
echo "compare-builds: ${#runs[@]} runs each in $work/old and $work/new"
/usr/bin/python3 "$root/scripts/compare-summaries.py" "$work/old" "$work/new" --files timeseries.csv
