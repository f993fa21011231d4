#!/usr/bin/env bash
# The README's test command: installs deps, configures, builds and runs every test with ctest
# in two configurations — the default (Release, DPFL_WERROR=ON) and ASan+UBSan — and exits
# non-zero on any failure. Set DPFL_SKIP_DEPS=1 to skip the apt step, DPFL_SKIP_ASAN=1 to skip
# the sanitizer configuration, DPFL_JOBS=N to change build parallelism.
# A third configuration builds only the libFuzzer targets with clang (build-fuzz) and runs
# `ctest -L fuzz` (corpus replay + a short smoke run each, fuzz/README.md); DPFL_SKIP_FUZZ=1
# skips it, and it is skipped with a message when clang++ is not installed.
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

run_fuzz() {  # clang + libFuzzer, fuzz targets only
  if ! command -v clang++ >/dev/null 2>&1; then
    echo "== fuzz: skipped (clang++ not installed)"
    return
  fi
  echo "== configure (fuzz, clang)"
  # -O1 with line tables (-g1), as in the asan preset: the sanitizer builds' compile time halves
  # (measured on the heaviest translation units against -O2 -g), and reports keep file:line.
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DDPFL_CUDA=OFF -DDPFL_TORCH=OFF -DDPFL_WERROR=ON >/dev/null
  echo "== build (fuzz)"
  # The quantizer targets and the parsers of untrusted bytes (fuzz/README.md).
  cmake --build build-fuzz -j "$JOBS" --target fuzz_quantizer_inputs fuzz_quantizer_bias fuzz_bnn_encoders fuzz_cepam_codec fuzz_qgauss fuzz_table_noise \
    fuzz_idx_loader fuzz_cifar_loader fuzz_train_config fuzz_certificate fuzz_exact_number fuzz_pld_files fuzz_round_wire \
    fuzz_check_protocol
  echo "== test (fuzz)"
  ctest --test-dir build-fuzz -L fuzz --output-on-failure --timeout 900
}

start=$(date +%s)
run_config default
[ "${DPFL_SKIP_ASAN:-0}" = 1 ] || run_config asan
[ "${DPFL_SKIP_FUZZ:-0}" = 1 ] || run_fuzz
echo "== all tests passed in $(( $(date +%s) - start )) s"
