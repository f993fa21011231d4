#!/usr/bin/env bash
# Starts one multi-process `dpfl train` on this machine (docs/scaling.md):
#
#   scripts/launch-local.sh N ARGS...      e.g. scripts/launch-local.sh 2 --dataset synthetic --mechanism corbin-fl --out run
#
# N processes run `dpfl train ARGS...` with WORLD_SIZE=N and RANK=0..N-1 in their environment, as
# torchrun sets them: rank 0 (the server) in the foreground, its JSON summary on stdout and its
# outputs (metrics.csv, final_weights.bin, certificate.json, ...) in the --out directory; ranks
# 1..N-1 (the client hosts) in the background, each with its JSON summary and stderr in
# OUT/launch/rank-R.json and rank-R.err. Do not pass --world-size or --rank (flags win over the
# environment). MASTER_ADDR (default 127.0.0.1) and MASTER_PORT (default: a free port) are passed
# on; DPFL names the binary (default build/production/dpfl). The exit code is rank 0's, or, if rank
# 0 succeeded, the first failing host's. Ctrl-C stops every rank.
set -euo pipefail

usage() { echo "usage: $0 N dpfl-train-args... (N >= 1 processes; see the header of this script)" >&2; exit 2; }
[ $# -ge 1 ] || usage
N="$1"
shift
[[ "$N" =~ ^[1-9][0-9]*$ ]] || usage
DPFL="${DPFL:-build/production/dpfl}"
[ -x "$DPFL" ] || { echo "launch-local: $DPFL is not an executable (build first, or set DPFL)" >&2; exit 2; }

out=""
prev=""
for arg in "$@"; do
  case "$arg" in
    --world-size|--world-size=*|--rank|--rank=*) echo "launch-local: do not pass $arg (the script sets WORLD_SIZE and RANK)" >&2; exit 2 ;;
    --out=*) out="${arg#--out=}" ;;
  esac
  [ "$prev" = "--out" ] && out="$arg"
  prev="$arg"
done
[ -n "$out" ] || { echo "launch-local: --out DIR is required (rank 0 writes the run there)" >&2; exit 2; }

# A free TCP port: one that nothing on this machine accepts connections on.
free_port() {
  local p
  for _ in $(seq 1 100); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  echo "launch-local: no free port found" >&2
  return 1
}
export MASTER_ADDR="${MASTER_ADDR:-127.0.0.1}"
export MASTER_PORT="${MASTER_PORT:-$(free_port)}"
export WORLD_SIZE="$N"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap 'cleanup; exit 130' INT TERM
if [ "$N" -gt 1 ]; then
  mkdir -p "$out/launch"
  for r in $(seq 1 $((N - 1))); do
    RANK="$r" "$DPFL" train "$@" > "$out/launch/rank-$r.json" 2> "$out/launch/rank-$r.err" &
    pids+=($!)
  done
fi
rc0=0
RANK=0 "$DPFL" train "$@" || rc0=$?
rc=0
for i in "${!pids[@]}"; do
  r=$((i + 1))
  code=0
  wait "${pids[$i]}" || code=$?
  if [ "$code" -ne 0 ]; then
    echo "launch-local: rank $r exited with $code (see $out/launch/rank-$r.err)" >&2
    [ "$rc" -ne 0 ] || rc=$code
  fi
done
[ "$rc0" -ne 0 ] && exit "$rc0"
exit "$rc"
