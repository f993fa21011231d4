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
#
# Further knobs (default): CLIENTS (100), LOCAL_STEPS (10, tau), MODEL (bnn-a), EVAL_CLIENTS (5),
# EVAL_SAMPLES (2000), MAX_SAMPLES (unset: the whole data set; else --max-samples). The exit code
# is non-zero when a run failed (its stderr.txt says why; re-running retries it).
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
LOCAL_STEPS="${LOCAL_STEPS:-10}"
MAX_SAMPLES="${MAX_SAMPLES:-}"

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
  local rr=() max=()
  [ "$gamma" = none ] || rr=(--rr-gamma "$gamma")
  [ -z "$MAX_SAMPLES" ] || max=(--max-samples "$MAX_SAMPLES")
  local start=$SECONDS rc=0
  "$DPFL" train --dataset "$DATASET" "${max[@]}" --mechanism dpfl-bnn --model "$MODEL" "${rr[@]}" --binarizer stosign \
    --clients "$CLIENTS" --rounds "$ROUNDS" --local-steps "$LOCAL_STEPS" --batch 64 --optimizer adam --adam-beta1 0.5 --lr 0.01 \
    --lr-schedule step:40:0.1 --mix-beta 0.3 --split dirichlet --beta "$beta" --seed "$seed" \
    --eval-clients "$EVAL_CLIENTS" --eval-samples "$EVAL_SAMPLES" --threads 1 --out "$dir" --quiet --no-plots \
    > "$dir/summary.json" 2> "$dir/stderr.txt" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAILED $dir (exit $rc; see $dir/stderr.txt)"
    return 1
  fi
  echo "done $dir in $((SECONDS - start)) s"
}
export -f run_one
export DPFL OUT DATASET ROUNDS CLIENTS EVAL_CLIENTS EVAL_SAMPLES MODEL LOCAL_STEPS MAX_SAMPLES
# xargs runs every line and exits 123 if one failed.
printf '%s\n' "${runs[@]}" | xargs -P "$JOBS" -L 1 bash -c 'run_one $0 $1 $2' ||
  { echo "bnn-experiments: some runs failed (FAILED lines above)" >&2; exit 1; }
