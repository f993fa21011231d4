#!/usr/bin/env bash
# Seed 002 experiments (docs/results-cepam.md): CEPAM and its baselines, one `dpfl train` per
# (grid, dataset, model, method, seed), JOBS at a time, each in OUT/GRID/DATASET/MODEL/METHOD/seedS
# (a run with a certificate.json is skipped, so the script resumes).
#  * grid table1 (Table I): fl, fl-sdq, fl-gaussian, fl-gaussian-sdq, cepam-gaussian n = 1, 2, 3 at the
#    paper's sigma = 0.001, gamma = 1 (spec 002 §5.3), both models;
#  * grid table2 (Table II): fl, fl-sdq, fl-laplace, fl-laplace-sdq, cepam-laplace at b = 0.001, CNN;
#  * grid eps: cepam-gaussian (n = 1) vs fl-gaussian and fl-gaussian-sdq with sigma calibrated to a per-round (eps, 1e-5)
#    target by the corrected Theorem 12 row (--calibration corrected), gamma = 0.1, MLP.
# Spec 002 §5.2 training: K = 30 clients, tau = 15 single-sample SGD steps per round, lr 0.01,
# momentum 0.9 (reset every round, E-X5); the rounds (not stated by the paper) are ROUNDS.
#
#   DPFL=build/production/dpfl OUT=results/cepam DATASETS="mnist fashion-mnist" ROUNDS=60 SEEDS="1 2 3" \
#     GRIDS="table1 table2 eps" MODELS="cepam-mlp cepam-cnn" JOBS=2 scripts/cepam-experiments.sh
#
# Further knobs, unset by default (dpfl train's seed-002 defaults then apply: 30 clients, tau = 15,
# the whole data set): CLIENTS (--clients), LOCAL_STEPS (--local-steps), MAX_SAMPLES
# (--max-samples); EPSILONS (1 4 16 64) is the eps grid. The exit code is non-zero when a run
# failed (its stderr.txt says why; re-running retries it).
set -euo pipefail
DPFL="${DPFL:-build/production/dpfl}"
OUT="${OUT:-results/cepam}"
DATASETS="${DATASETS:-mnist fashion-mnist}"
ROUNDS="${ROUNDS:-60}"
SEEDS="${SEEDS:-1 2 3}"
GRIDS="${GRIDS:-table1 table2 eps}"
EPSILONS="${EPSILONS:-1 4 16 64}"
MODELS="${MODELS:-cepam-mlp cepam-cnn}"  # table1's models
JOBS="${JOBS:-2}"
CLIENTS="${CLIENTS:-}"
LOCAL_STEPS="${LOCAL_STEPS:-}"
MAX_SAMPLES="${MAX_SAMPLES:-}"

[ -x "$DPFL" ] || { echo "cepam-experiments: $DPFL not found (build first, or set DPFL)" >&2; exit 2; }
runs=()
for grid in $GRIDS; do
  for dataset in $DATASETS; do
    for seed in $SEEDS; do
      case "$grid" in
        table1)
          for model in $MODELS; do
            for method in fl fl-sdq fl-gaussian fl-gaussian-sdq cepam-gaussian-n1 cepam-gaussian-n2 cepam-gaussian-n3; do
              runs+=("$grid $dataset $model $method $seed")
            done
          done ;;
        table2)
          for method in fl fl-sdq fl-laplace fl-laplace-sdq cepam-laplace; do
            runs+=("$grid $dataset cepam-cnn $method $seed")
          done ;;
        eps)
          for eps in $EPSILONS; do
            for method in cepam-gaussian fl-gaussian fl-gaussian-sdq; do
              runs+=("$grid $dataset cepam-mlp $method-eps$eps $seed")
            done
          done ;;
        *) echo "cepam-experiments: unknown grid '$grid'" >&2; exit 2 ;;
      esac
    done
  done
done

run_one() {  # grid dataset model method seed
  local grid="$1" dataset="$2" model="$3" method="$4" seed="$5" dir mech
  dir="$OUT/$grid/$dataset/$model/$method/seed$seed"
  [ -f "$dir/certificate.json" ] && { echo "skip $dir"; return 0; }
  mkdir -p "$dir"
  local args=()
  case "$method" in
    cepam-gaussian-n*) mech=cepam-gaussian; args=(--lattice-dim "${method#cepam-gaussian-n}" --sigma 0.001) ;;
    *-eps*) mech="${method%-eps*}"; args=(--clip 0.1 --eps "${method##*-eps}" --delta 1e-5 --calibration corrected) ;;
    fl-gaussian | fl-gaussian-sdq) mech="$method"; args=(--sigma 0.001) ;;
    fl-laplace | fl-laplace-sdq | cepam-laplace) mech="$method"; args=(--b 0.001) ;;
    *) mech="$method" ;;
  esac
  [ -z "$CLIENTS" ] || args+=(--clients "$CLIENTS")
  [ -z "$LOCAL_STEPS" ] || args+=(--local-steps "$LOCAL_STEPS")
  [ -z "$MAX_SAMPLES" ] || args+=(--max-samples "$MAX_SAMPLES")
  local start=$SECONDS rc=0
  "$DPFL" train --dataset "$dataset" --mechanism "$mech" --model "$model" "${args[@]}" --rounds "$ROUNDS" \
    --seed "$seed" --threads 1 --out "$dir" --quiet --no-plots > "$dir/summary.json" 2> "$dir/stderr.txt" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAILED $dir (exit $rc; see $dir/stderr.txt)"
    return 1
  fi
  echo "done $dir in $((SECONDS - start)) s"
}
export -f run_one
export DPFL OUT ROUNDS CLIENTS LOCAL_STEPS MAX_SAMPLES
# xargs runs every line and exits 123 if one failed.
printf '%s\n' "${runs[@]}" | xargs -P "$JOBS" -L 1 bash -c 'run_one $0 $1 $2 $3 $4' ||
  { echo "cepam-experiments: some runs failed (FAILED lines above)" >&2; exit 1; }
