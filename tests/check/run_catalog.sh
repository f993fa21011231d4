#!/usr/bin/env bash
# Runs `dpfl check` over the outside implementations of tests/check/implementations.py: every
# correct implementation over SEEDS seeds (check seed = implementation seed = s), and every fault
# of the catalog once. Prints one tab-separated line per run (kind, mechanism, fault, seed, exit
# code, rejected checks, seconds) and a summary; exits 1 if a correct implementation was flagged
# or a fault was not.
#
#   tests/check/run_catalog.sh DPFL [SEEDS] [SAMPLES]      (defaults: 20 seeds, 20000 runs per input)
set -uo pipefail
DPFL="$1"
SEEDS="${2:-20}"
SAMPLES="${3:-20000}"
HERE="$(cd "$(dirname "$0")" && pwd)"
IMPL="$HERE/implementations.py"
PY="${DPFL_PYTHON:-python3}"

declare -A PARAMS=(
  [ldpq]="--eps 1 --c 0 --r 1"
  [corbinq]="--eps 1 --c 0.5 --r 2 --d 3"
  [coq]="--eps 2 --c 0 --r 1 --d 4"
  [rr]="--rr-gamma 0.3"
  [stosign]=""
  [bnn-upload]="--rr-gamma 0.2"
  [qgauss]="--sigma 0.05 --levels 16 --clip 1"
  [cepam-gaussian]="--lattice-dim 2 --sigma 0.7"
  [cepam-laplace]="--lattice-dim 1 --b 0.5"
  [gaussian]="--c 0 --r 1 --sigma2 3"
  [laplace]="--c 0 --r 1 --t 2.5"
  [coq@px]="--eps 1 --c 0 --r 1 --d 3 --px 0.3"
  [qgauss@wide]="--sigma 0.5 --levels 8 --clip 2"
)
# Correct implementations: every mechanism, and second parameter sets (NAME@TAG) where another
# code path matters (CoQ's general codebook p_x != 1/2; the quantized Gaussian's saturation).
MECHANISMS=(ldpq corbinq coq rr stosign bnn-upload qgauss cepam-gaussian cepam-laplace gaussian laplace coq@px qgauss@wide)

false_alarms=0 correct_runs=0 missed=0 faults=0
one() {  # kind mechanism[@tag] fault seed
  local kind="$1" mech="${2%@*}" fault="$3" seed="$4" p="${PARAMS[$2]}" start end rc json rejected
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  json=$("$DPFL" check "$mech" $p --samples "$SAMPLES" --seed "$seed" --json -- \
           "$PY" "$IMPL" "$mech" $p --seed "$seed" ${fault:+--fault "$fault"} 2>/dev/null)
  rc=$?
  end=$(date +%s.%N)
  rejected=$(printf '%s' "$json" | sed -n 's/^  "rejected": \([0-9]*\),*$/\1/p')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%.1f\n' "$kind" "$2" "${fault:--}" "$seed" "$rc" "${rejected:-?}" \
    "$(echo "$end - $start" | bc)"
  return "$rc"
}

printf 'kind\tmechanism\tfault\tseed\texit\trejected\tseconds\n'
for mech in "${MECHANISMS[@]}"; do
  for ((s = 1; s <= SEEDS; ++s)); do
    correct_runs=$((correct_runs + 1))
    one correct "$mech" "" "$s" || false_alarms=$((false_alarms + 1))
  done
done
while IFS=$'\t' read -r mech fault _; do
  faults=$((faults + 1))
  if one fault "$mech" "$fault" 1; then missed=$((missed + 1)); fi
done < <("$PY" "$IMPL" --list)
echo "summary: correct implementations flagged in $false_alarms of $correct_runs runs; faults missed: $missed of $faults"
[ "$false_alarms" -eq 0 ] && [ "$missed" -eq 0 ]
