#!/usr/bin/env bash
# `dpfl check` through the real binary (ctest check_cli_*; docs/check.md's examples):
#   python     one correct and one faulty Python implementation (exit 0 and 1), --json, --junit,
#              a float32 implementation (exit 2, the answer named), usage errors (exit 2)
#   serve      dpfl's own production encoders through the protocol (`dpfl serve`), every mechanism
#   fedavg     the PyTorch peer's LDP-FL quantizer (needs python3-torch; exit 77 = skipped)
#   catalog    the whole fault catalog once and the correct implementations over 2 seeds
# Environment: DPFL (the dpfl binary), DPFL_SOURCE_DIR, DPFL_PYTHON (default python3).
set -uo pipefail
case_name="$1"
PY="${DPFL_PYTHON:-python3}"
IMPL="$DPFL_SOURCE_DIR/tests/check/implementations.py"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() {  # expected-code description command...
  local want="$1" what="$2"
  shift 2
  "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || { cat "$WORK/out" "$WORK/err" >&2; fail "$what: exit $rc, expected $want"; }
  echo "ok: $what (exit $rc)"
}
LDPQ=(--eps 1 --c 0 --r 1)

case "$case_name" in
python)
  expect_rc 0 "correct ldpq" "$DPFL" check ldpq "${LDPQ[@]}" --samples 10000 --junit "$WORK/junit.xml" -- \
    "$PY" "$IMPL" ldpq "${LDPQ[@]}"
  grep -q "verdict: conformant" "$WORK/out" || fail "no conformant verdict"
  grep -q '<testsuite name="dpfl check ldpq"' "$WORK/junit.xml" || fail "no JUnit suite"
  [ "$(grep -c '<testcase' "$WORK/junit.xml")" -gt 30 ] || fail "JUnit has too few testcases"
  ! grep -q '<failure' "$WORK/junit.xml" || fail "JUnit failure for a conformant run"
  expect_rc 1 "ldpq without its clip (seed-001 E12)" "$DPFL" check ldpq "${LDPQ[@]}" --samples 10000 --json -- \
    "$PY" "$IMPL" ldpq "${LDPQ[@]}" --fault no-clip
  grep -q '"verdict": "NONCONFORMANT"' "$WORK/out" || fail "JSON verdict"
  grep -q '"rejected": true' "$WORK/out" || fail "no rejected check in the JSON"
  expect_rc 2 "float32 levels are off the support" "$DPFL" check ldpq "${LDPQ[@]}" -- \
    "$PY" "$IMPL" ldpq "${LDPQ[@]}" --fault float32
  grep -q "is not in the mechanism's support" "$WORK/err" || fail "support error not named"
  expect_rc 2 "no COMMAND" "$DPFL" check ldpq "${LDPQ[@]}"
  expect_rc 2 "bad --eps" "$DPFL" check ldpq --eps -1 --c 0 --r 1 -- "$PY" "$IMPL" ldpq "${LDPQ[@]}"
  grep -q -- "--eps" "$WORK/err" || fail "--eps not named"
  expect_rc 2 "missing program" "$DPFL" check ldpq "${LDPQ[@]}" -- /nonexistent/impl
  expect_rc 2 "a program that exits" "$DPFL" check ldpq "${LDPQ[@]}" -- sh -c "exit 3"
  grep -q "request 1" "$WORK/err" || fail "the request is not named"
  expect_rc 0 "--help" "$DPFL" check ldpq --help
  ;;
serve)
  for spec in "ldpq --eps 1 --c 0 --r 1" "corbinq --eps 1 --c 0.5 --r 2 --d 3" "coq --eps 2 --c 0 --r 1 --d 4" \
              "rr --rr-gamma 0.3" "stosign" "bnn-upload --rr-gamma 0.2" "qgauss --sigma 0.05 --levels 16 --clip 1" \
              "cepam-gaussian --lattice-dim 2 --sigma 0.7" "cepam-laplace --lattice-dim 1 --b 0.5" \
              "gaussian --c 0 --r 1 --sigma2 3" "laplace --c 0.5 --r 2 --t 1048576"; do
    # shellcheck disable=SC2086
    expect_rc 0 "dpfl serve $spec" "$DPFL" check $spec --samples 20000 -- "$DPFL" serve $spec
  done
  ;;
fedavg)
  "$PY" -c "import torch" 2>/dev/null || { echo "skipped: python3-torch not installed"; exit 77; }
  A="$DPFL_SOURCE_DIR/tests/check/fedavg_peer_ldpq.py"
  # The finding: its levels are float32 (c + r*alpha rounded to float), 5e-8 off the exact ones.
  expect_rc 2 "fedavg_peer ldp_fl at tolerance 1e-9" "$DPFL" check ldpq "${LDPQ[@]}" -- "$PY" "$A" "${LDPQ[@]}"
  grep -q "is not in the mechanism's support" "$WORK/err" || fail "support error not named"
  # Its law, with the float32 levels accepted: conformant.
  expect_rc 0 "fedavg_peer ldp_fl at tolerance 1e-6" "$DPFL" check ldpq "${LDPQ[@]}" --tolerance 1e-6 -- \
    "$PY" "$A" "${LDPQ[@]}"
  ;;
catalog)
  DPFL_PYTHON="$PY" bash "$DPFL_SOURCE_DIR/tests/check/run_catalog.sh" "$DPFL" 2 20000 || fail "catalog"
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
