#!/usr/bin/env bash
# Smoke test of scripts/bench-accounting.py (docs/benchmarks.md "Accounting"): the smoke workloads
# with dpfl-ref only (dp_accounting is not installed on CI machines; the peer path is pointed at an
# empty folder so a user's installation cannot change what runs), then the JSON document: every row
# holds an enclosure lo <= hi, a positive time and RSS, and bad arguments exit 2.
# Environment: DPFL_REF (the dpfl-ref binary), DPFL_SOURCE_DIR. Exit 77 (skipped) without python3.
set -euo pipefail
: "${DPFL_REF:?set DPFL_REF to the dpfl-ref binary}"
: "${DPFL_SOURCE_DIR:?set DPFL_SOURCE_DIR to the repository}"
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed: skipped"; exit 77; }
TMP="$(mktemp -d "${TMPDIR:-/tmp}/dpfl_bench_accounting.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
S="$DPFL_SOURCE_DIR/scripts/bench-accounting.py"
fail() { echo "FAIL: $*" >&2; exit 1; }

# No importable peer: the table has the dpfl rows and says why the peer is missing.
python3 "$S" --dpfl-ref "$DPFL_REF" --peer-path "$TMP" --peer-python python3-does-not-exist --workloads smoke \
  >"$TMP/table.txt" 2>"$TMP/table.err" || fail "table run exited $?: $(cat "$TMP/table.err")"
grep -q "cannot run python3-does-not-exist" "$TMP/table.err" || fail "the missing peer is not named: $(cat "$TMP/table.err")"
[ "$(grep -c '^  dpfl ' "$TMP/table.txt")" = 2 ] || fail "expected two dpfl rows: $(cat "$TMP/table.txt")"

python3 "$S" --dpfl-ref "$DPFL_REF" --peer-python python3-does-not-exist --workloads smoke --json >"$TMP/out.json" \
  || fail "--json run exited $?"
python3 - "$TMP/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
assert len(rows) == 2, rows
for r in rows:
    x = r["dpfl"]
    lo, hi = float(x["epsilon_lo"]), float(x["epsilon_hi"])
    assert 0 < lo <= hi < 100, (lo, hi)
    assert x["seconds"] > 0 and x["rss_mb"] > 0, x
    assert 0 <= x["relative_width"] < 0.01, x
    assert "dp_accounting" not in r and "time_ratio" not in r, r
print("ok")
PY

# Bad arguments exit 2 with a message.
set +e
python3 "$S" --dpfl-ref "$TMP/no-such-binary" --workloads smoke >/dev/null 2>"$TMP/e1"; rc1=$?
python3 "$S" --dpfl-ref "$DPFL_REF" --workloads nonsense >/dev/null 2>"$TMP/e2"; rc2=$?
set -e
[ "$rc1" = 2 ] && grep -q "dpfl-ref not found" "$TMP/e1" || fail "a missing dpfl-ref: exit $rc1, $(cat "$TMP/e1")"
[ "$rc2" = 2 ] && grep -q "workloads must be" "$TMP/e2" || fail "bad --workloads: exit $rc2, $(cat "$TMP/e2")"
echo "bench-accounting smoke: ok"
