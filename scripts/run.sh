#!/usr/bin/env bash
# The README's main job: a default certified federated training on Fashion-MNIST.
# Installs deps, builds dpfl, trains vanilla FL, CorBin-FL and LDP-FL with the same data, model,
# seed, rounds and per-parameter per-round budget eps_p, verifies the two certificates with the
# reference, draws one picture of the three runs' accuracy per round side by side
# (`dpfl plot compare`), and prints the final test accuracies next to each other plus where the
# outputs are.
# Its wall time, measured with the commit it was measured at, is in docs/results.md.
#
# Environment: EPS (default 1), OUT (default out/run), ROUNDS (default 8), SEED (default 1),
# DPFL_SKIP_DEPS=1 (no apt), DPFL_SKIP_BUILD=1 (use the dpfl already in build/production).
set -euo pipefail
cd "$(dirname "$0")/.."

[ "${DPFL_SKIP_DEPS:-0}" = 1 ] || bash scripts/install-deps.sh
if [ "${DPFL_SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset default >/dev/null
  cmake --build --preset default --target dpfl-cli -j "$(nproc)" >/dev/null
fi
DPFL=build/production/dpfl

EPS="${EPS:-1}"
ROUNDS="${ROUNDS:-8}"
SEED="${SEED:-1}"
OUT="${OUT:-out/run}"
mkdir -p "$OUT"

# Fashion-MNIST, first 20,000 samples (train/validation/test split of those), 100 IID clients, VGG.
COMMON=(--dataset fashion-mnist --max-samples 20000 --clients 100 --rounds "$ROUNDS" --eps-p "$EPS"
        --seed "$SEED" --lr 0.1 --local-epochs 2 --quiet)

# One JSON field of dpfl's pretty-printed output (one key per line): the value, quotes stripped.
field() { grep -m1 "\"$1\":" "$2" | sed -E 's/^[^:]*: *"?([^",]*)"?,?$/\1/'; }

declare -A ACC SECS
for m in vanilla corbin-fl ldp-fl; do
  echo "== dpfl train --mechanism $m --eps-p $EPS (${ROUNDS} rounds, 100 clients)" >&2
  start=$(date +%s)
  "$DPFL" train "${COMMON[@]}" --mechanism "$m" --out "$OUT/$m" >"$OUT/$m.json"
  SECS[$m]=$(( $(date +%s) - start ))
  ACC[$m]=$(field final_test_accuracy "$OUT/$m.json")
  if [ "$m" != vanilla ]; then
    "$DPFL" verify-certificate "$OUT/$m/certificate.json" >"$OUT/$m.verify.json"
    grep -q '"verified": true' "$OUT/$m.verify.json" || { echo "certificate of $m NOT verified" >&2; exit 1; }
  fi
done

echo
echo "Fashion-MNIST (first 20000 samples), 100 clients, ${ROUNDS} rounds, VGG, seed ${SEED}, eps_p = ${EPS} per parameter per round"
printf '%-10s %15s %10s %s\n' mechanism final_test_acc wall_s certificate
for m in vanilla corbin-fl ldp-fl; do
  cert="-"
  if [ "$m" != vanilla ]; then
    hi=$(field eps_p_implemented_total_hi "$OUT/$m.json")
    r1=$(grep -m1 -A1 '"eps_p_implemented": {' "$OUT/$m/certificate.json" | field hi /dev/stdin)
    cert="verified; implemented eps_p <= ${r1} per round, <= ${hi} over ${ROUNDS} rounds"
  fi
  printf '%-10s %15s %10s %s\n' "$m" "${ACC[$m]}" "${SECS[$m]}" "$cert"
done
echo
for m in corbin-fl ldp-fl; do
  echo "$m certificate: $(field certificate "$OUT/$m.json")"
done
for m in vanilla corbin-fl ldp-fl; do
  echo "$m metrics:   $(field metrics "$OUT/$m.json")"
done
"$DPFL" plot compare "$OUT/vanilla" "$OUT/corbin-fl" "$OUT/ldp-fl" --out "$OUT/accuracy_compare.png" >"$OUT/compare.json"
echo
echo "accuracy per round, the three mechanisms side by side: $(field plot "$OUT/compare.json")"
