#!/usr/bin/env bash
# The README's main job. Until the training loop exists: installs deps, builds the reference
# and prints a short human-readable report computed exactly by dpfl-ref.
set -euo pipefail
cd "$(dirname "$0")/.."

[ "${DPFL_SKIP_DEPS:-0}" = 1 ] || bash scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target dpfl-ref -j "$(nproc)" >/dev/null
build/reference/dpfl-ref report
