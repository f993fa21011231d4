#!/usr/bin/env bash
# The README's test command: installs deps, configures, builds and runs every test with ctest
# in two configurations — the default (RelWithDebInfo, -Werror) and ASan+UBSan — and exits
# non-zero on any failure. Set DPFL_SKIP_DEPS=1 to skip the apt step, DPFL_SKIP_ASAN=1 to skip
# the sanitizer configuration, DPFL_JOBS=N to change build parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."

[ "${DPFL_SKIP_DEPS:-0}" = 1 ] || bash scripts/install-deps.sh
JOBS="${DPFL_JOBS:-$(nproc)}"

run_config() {  # preset
  local preset="$1"
  echo "== configure ($preset)"
  cmake --preset "$preset" >/dev/null
  echo "== build ($preset)"
  cmake --build --preset "$preset" -j "$JOBS"
  echo "== test ($preset)"
  ctest --preset "$preset" -j "$JOBS" --timeout 900
}

start=$(date +%s)
run_config default
[ "${DPFL_SKIP_ASAN:-0}" = 1 ] || run_config asan
echo "== all tests passed in $(( $(date +%s) - start )) s"
