#!/usr/bin/env bash
# The SoC-level hostile-input and power-cut tests under gcc's AddressSanitizer
# and UndefinedBehaviorSanitizer (build-asan/, as SANITIZE=1 bash
# scripts/test.sh), apart from CI's sanitized subset (.ci/run) because their
# build is the models' and the platform's (about 350 build steps from
# nothing, docs/robustness.md "Sanitizers"):
#   - PlatformErrors, Hostile: raw NVMe commands with bad opcodes, fields,
#     ranges, namespaces, PRPs, deleted queues (each completes with its status);
#   - two small power-cut runs through the sanitized ssdvp: three cuts with
#     checkpoints, six on varmail without (cut, recovery in simulated time,
#     the check of every LBA, the host going on).
#   scripts/sanitize-soc.sh [extra ctest arguments]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
SANITIZE=1 BUILD_TARGETS="${SANITIZED_SOC_TARGETS:-platform_error_paths_test platform_hostile_test ssdvp
  fidelity_power_test}" \
  bash "$root/scripts/test.sh" \
  -R "${SANITIZED_SOC_TESTS:-^(PlatformErrors|Hostile)\.|^PowerCut\.(SeveralCutsInOneRun|WithoutCheckpointsDeallocated)}" "$@"
