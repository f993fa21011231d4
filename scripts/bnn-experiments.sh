#!/usr/bin/env bash
# Seed 004 experiments (docs/results-bnn.md): DPFL-BNN on Fashion-MNIST / MNIST-10k, one
# `dpfl train --mechanism dpfl-bnn` per (split, gamma, seed), JOBS at a time, each in
# OUT/DATASET/SPLIT/GAMMA/seedS (a run with a certificate.json is skipped, so the script resumes).
# GAMMAS: RR biases; "none" = the no-noise BNN baseline. Splits: iid = Dirichlet(100), noniid =
# Dirichlet(1) (spec 004 §5.1). Hyper-parameters of spec 004 §5.3 (tau = 10, batch 64, Adam with
# beta1 = 0.5 (E23), beta = 0.3, lr step 40 x 0.1) with lr 0.01 (the authors' scripts, E23).
#
#   DPFL=build/production/dpfl OUT=results/bnn DATASET=fashion-mnist ROUNDS=10 SEEDS="1 2 3" \
#     GAMMAS="none 0.1 0.4 0 0.2 0.3" SPLITS="iid noniid" JOBS=2 scripts/bnn-experiments.sh
set -euo pipefail
DPFL="${DPFL:-build/production/dpfl}"
OUT="${OUT:-results/bnn}"
DATASET="${DATASET:-fashion-mnist}"
ROUNDS="${ROUNDS:-10}"
CLIENTS="${CLIENTS:-100}"
SEEDS="${SEEDS:-1 2 3}"
GAMMAS="${GAMMAS:-none 0.1 0.2 0.3 0.4 0}"
SPLITS="${SPLITS:-iid noniid}"
JOBS="${JOBS:-2}"
EVAL_CLIENTS="${EVAL_CLIENTS:-5}"
EVAL_SAMPLES="${EVAL_SAMPLES:-2000}"
MODEL="${MODEL:-bnn-a}"

[ -x "$DPFL" ] || { echo "bnn-experiments: $DPFL not found (build first, or set DPFL)" >&2; exit 2; }
runs=()
for seed in $SEEDS; do
  for split in $SPLITS; do
    for gamma in $GAMMAS; do
      runs+=("$split $gamma $seed")
    done
  done
done

run_one() {  # split gamma seed
  local split="$1" gamma="$2" seed="$3" beta dir
  beta=$([ "$split" = iid ] && echo 100 || echo 1)
  dir="$OUT/$DATASET/$split/gamma-$gamma/seed$seed"
  [ -f "$dir/certificate.json" ] && { echo "skip $dir"; return 0; }
  mkdir -p "$dir"
  local rr=()
  [ "$gamma" = none ] || rr=(--rr-gamma "$gamma")
  local start=$SECONDS
  "$DPFL" train --dataset "$DATASET" --mechanism dpfl-bnn --model "$MODEL" "${rr[@]}" --binarizer stosign \
    --clients "$CLIENTS" --rounds "$ROUNDS" --local-steps 10 --batch 64 --optimizer adam --adam-beta1 0.5 --lr 0.01 \
    --lr-schedule step:40:0.1 --mix-beta 0.3 --split dirichlet --beta "$beta" --seed "$seed" \
    --eval-clients "$EVAL_CLIENTS" --eval-samples "$EVAL_SAMPLES" --threads 1 --out "$dir" --quiet --no-plots \
    > "$dir/summary.json" 2> "$dir/stderr.txt"
  echo "done $dir in $((SECONDS - start)) s"
}
export -f run_one
export DPFL OUT DATASET ROUNDS CLIENTS EVAL_CLIENTS EVAL_SAMPLES MODEL
printf '%s\n' "${runs[@]}" | xargs -P "$JOBS" -L 1 bash -c 'run_one $0 $1 $2'
