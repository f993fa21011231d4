#!/usr/bin/env bash
# Issue 18 experiments (docs/results-qgauss.md): one `dpfl audit lira` per configuration, each in
# OUT/NAME (the target and SHADOWS shadow trainings, audit.json, roc.csv, roc.png). An audit whose
# audit.json exists is skipped, and an interrupted audit resumes (it reuses finished runs), so the
# script can be re-run until everything is done. Every configuration shares the audit's local
# training (2 clients, 10 rounds, 10 local epochs, Adam lr 0.01, batch 128, model mlp) and the pool.
#  * grid seed003: vanilla, the Gaussian baseline and the quantized Gaussian k = 2, 4, 8, 16 at the
#    seed's sigma = 0.03 (C_q = 1), and at sigma = 0.001 the Gaussian and k = 2, 16, 256;
#  * grid seed000: LDP-FL and CorBin-FL at eps_p = 1 and 5 (the seed-000/001 loop, same training);
#  * grid clip: the Gaussian baseline at sigma = 1e-6 (noise negligible: the l2 clip to C_q/2 alone).
#
#   DPFL=build/production/dpfl OUT=results/lira DATASET=fashion-mnist POOL=5000 SHADOWS=16 JOBS=2 \
#     GRIDS="seed003 seed000 clip" scripts/lira-experiments.sh
#
# Further knobs, unset by default (the audit's defaults above then apply, and the whole data set):
# MAX_SAMPLES (--max-samples), CLIENTS (--clients), ROUNDS (--rounds), LOCAL_EPOCHS
# (--local-epochs). The exit code is non-zero when an audit failed (after trying every audit; its
# stderr.txt says why; re-running resumes it).
set -euo pipefail
DPFL="${DPFL:-build/production/dpfl}"
OUT="${OUT:-results/lira}"
DATASET="${DATASET:-fashion-mnist}"
POOL="${POOL:-5000}"
SHADOWS="${SHADOWS:-16}"
JOBS="${JOBS:-2}"
GRIDS="${GRIDS:-seed003 seed000 clip}"
training=()
[ -z "${MAX_SAMPLES:-}" ] || training+=(--max-samples "$MAX_SAMPLES")
[ -z "${CLIENTS:-}" ] || training+=(--clients "$CLIENTS")
[ -z "${ROUNDS:-}" ] || training+=(--rounds "$ROUNDS")
[ -z "${LOCAL_EPOCHS:-}" ] || training+=(--local-epochs "$LOCAL_EPOCHS")

[ -x "$DPFL" ] || { echo "lira-experiments: $DPFL not found (build first, or set DPFL)" >&2; exit 2; }
configs=()
for grid in $GRIDS; do
  case "$grid" in
    seed003)
      configs+=("vanilla|--mechanism vanilla")
      for sigma in 0.03 0.001; do
        configs+=("gaussian-s$sigma|--mechanism qgauss-gaussian --sigma $sigma --clip 1")
      done
      for k in 2 4 8 16; do configs+=("qgauss-k$k-s0.03|--mechanism qgauss --levels $k --sigma 0.03 --clip 1"); done
      for k in 2 16 256; do configs+=("qgauss-k$k-s0.001|--mechanism qgauss --levels $k --sigma 0.001 --clip 1"); done ;;
    seed000)
      for eps in 1 5; do
        configs+=("ldp-fl-e$eps|--mechanism ldp-fl --eps-p $eps")
        configs+=("corbin-fl-e$eps|--mechanism corbin-fl --eps-p $eps")
      done ;;
    clip) configs+=("gaussian-s1e-06|--mechanism qgauss-gaussian --sigma 1e-06 --clip 1") ;;
    *) echo "lira-experiments: unknown grid '$grid' (seed003, seed000, clip)" >&2; exit 2 ;;
  esac
done
failed=0
for c in "${configs[@]}"; do
  name="${c%%|*}" args="${c#*|}"
  dir="$OUT/$DATASET/$name"
  [ -f "$dir/audit.json" ] && { echo "skip $dir"; continue; }
  mkdir -p "$dir"
  start=$SECONDS
  rc=0
  # shellcheck disable=SC2086  # args is a list of flags
  "$DPFL" audit lira --dataset "$DATASET" --pool "$POOL" --shadows "$SHADOWS" --jobs "$JOBS" "${training[@]}" $args \
    --out "$dir" > "$dir/stdout.json" 2> "$dir/stderr.txt" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAILED $dir (exit $rc; see $dir/stderr.txt)"
    failed=$((failed + 1))
    continue
  fi
  echo "done $dir in $((SECONDS - start)) s"
done
[ "$failed" -eq 0 ] || { echo "lira-experiments: $failed audit(s) failed (FAILED lines above)" >&2; exit 1; }
