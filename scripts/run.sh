#!/usr/bin/env bash
# The README's main job. Trains vanilla FL, CorBin-FL and LDP-FL with `dpfl train` on the same
# data, model, clients, rounds, seed and per-parameter per-round budget eps_p; checks each run's
# certificate with `dpfl verify-certificate` (every privacy number recomputed by the reference);
# draws the three runs' accuracy per round in one picture (`dpfl plot compare`); and prints one
# table on stdout, with its machine-readable twin in OUT/summary.json. Progress goes to stderr.
#
# Per mechanism the table gives the final test accuracy, the wall time of `dpfl train` and of
# `dpfl verify-certificate`, the verdict, and two guarantee rows of certificate.json, selected by
# name (notion and unit):
#   * the per-parameter epsilon of one round (LDP per parameter, unit "one parameter of one
#     client's update, one round"; for the 1-bit mechanisms the implemented 64-bit thresholds);
#   * the "tight central (epsilon, delta) from a privacy loss distribution" row (the whole run);
# each as the certificate's enclosure [epsilon_lo, epsilon_hi] at its delta, or ∞ when the row
# has no finite epsilon_hi or does not apply. Footnotes give each row's observer (whom the
# guarantee is against) and, for ∞, the certificate's reason. A vanilla certificate has only
# the row "none": both columns are ∞ with its reason.
#
# JSON is read with jq only. A missing or renamed field, or a guarantee row that is not found
# exactly once, stops the script with a message naming it. Exit code: 0 when every certificate
# verified; 1 when one did not (after the table), or on any error.
#
# Environment (default in parentheses):
#   DATASET       dpfl train --dataset (fashion-mnist)
#   MAX_SAMPLES   use the first N samples, split into training/validation/test (20000)
#   CLIENTS       number of clients, IID split (100)
#   ROUNDS        communication rounds (8)
#   EPS           eps_p of CorBin-FL and LDP-FL, per parameter per round (1)
#   SEED          run seed: keys, split, initial model (1)
#   MODEL         dpfl train --model (auto: VGG for 28x28 gray images)
#   LOCAL_EPOCHS  local passes over each client's data per round (2); lr is 0.1, batch 64
#   WORKERS       client trainers in parallel (nproc); results are identical for every value
#   OUT           output directory (out/run in the repository): OUT/MECHANISM/ is a run,
#                 OUT/MECHANISM.{train,verify}.json and .log dpfl's outputs, OUT/summary.json,
#                 OUT/accuracy_compare.png
#   DPFL          the dpfl binary (build/production/dpfl in the repository)
#   DPFL_SKIP_DEPS=1   do not run scripts/install-deps.sh
#   DPFL_SKIP_BUILD=1  do not configure and build (preset default, target dpfl-cli)
# Relative OUT and DPFL are taken from the current directory.
# shellcheck disable=SC2016  # the jq programs are single-quoted on purpose
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATASET="${DATASET:-fashion-mnist}"
MAX_SAMPLES="${MAX_SAMPLES:-20000}"
CLIENTS="${CLIENTS:-100}"
ROUNDS="${ROUNDS:-8}"
EPS="${EPS:-1}"
SEED="${SEED:-1}"
MODEL="${MODEL:-auto}"
LOCAL_EPOCHS="${LOCAL_EPOCHS:-2}"
LR=0.1
WORKERS="${WORKERS:-$(nproc)}"
OUT="${OUT:-$REPO/out/run}"
DPFL="${DPFL:-$REPO/build/production/dpfl}"
MECHANISMS=(vanilla corbin-fl ldp-fl)
# The guarantee rows of certificate.json shown in the table, by name (docs/training.md).
PER_PARAMETER_UNIT="one parameter of one client's update, one round"
PER_PARAMETER_NOTION="LDP per parameter"  # a part of the notion: epsilon-LDP or (epsilon, delta)-LDP
CENTRAL_NOTION="tight central (epsilon, delta) from a privacy loss distribution"

step() { echo "run.sh: $*" >&2; }
die() { echo "run.sh: error: $*" >&2; exit 1; }

mkdir -p "$OUT"
rm -f "$OUT/summary.json"  # from an earlier run: written again only when this one gets that far
if [ "${DPFL_SKIP_DEPS:-0}" != 1 ]; then
  bash "$REPO/scripts/install-deps.sh" || die "scripts/install-deps.sh failed (its message is above)"
fi
if [ "${DPFL_SKIP_BUILD:-0}" != 1 ]; then
  step "building dpfl-cli (cmake preset default; log: $OUT/build.log)"
  if ! (cd "$REPO" && cmake --preset default && cmake --build --preset default --target dpfl-cli -j "$(nproc)") \
      >"$OUT/build.log" 2>&1; then
    tail -n 40 "$OUT/build.log" >&2
    die "the build failed (last lines above; all of it in $OUT/build.log)"
  fi
fi
command -v jq >/dev/null 2>&1 || die "jq not found (Debian package jq; scripts/install-deps.sh installs it)"
case "$DPFL" in  # a bare name: a file here, else a command on PATH
  */*) ;;
  *) if [ -f "$DPFL" ]; then DPFL="./$DPFL"; else DPFL="$(command -v "$DPFL" || echo "$DPFL")"; fi ;;
esac
[ -x "$DPFL" ] || die "DPFL=$DPFL is not an executable (build first, or set DPFL)"

# --- Reading JSON (jq only) ------------------------------------------------------------------
# Prepended to every jq program. field(name; where): the field of an object, which must be
# present (its value may be null); otherwise an error naming the field and where it was expected.
JQ_LIB='
def field($name; $where):
  if type == "object" and has($name) then .[$name]
  else error("\($where): no field \"\($name)\"") end;
def text: if type == "string" then . else tojson end;
'

# One run's row of summary.json, from dpfl train's stdout ($train), the certificate ($cert) and
# dpfl verify-certificate's stdout ($verify). The guarantee rows are selected by the names in
# $per_parameter_unit, $per_parameter_notion (a part of the notion) and $central_notion.
ROW_PROGRAM='
def guarantee_rows:
  ($cert[0] | field("privacy"; $cert_file) | field("guarantees"; "\($cert_file): privacy")) as $g
  | if ($g | type) == "array" and ($g | length) > 0 then $g
    else error("\($cert_file): privacy.guarantees is not a non-empty array") end
  | to_entries
  | map(.key as $i | .value | "\($cert_file): privacy.guarantees[\($i)]" as $w
        | {notion: field("notion"; $w), unit: field("unit"; $w), observer: field("observer"; $w),
           composition: field("composition"; $w), applies: field("applies"; $w),
           epsilon_lo: field("epsilon_lo"; $w), epsilon_hi: field("epsilon_hi"; $w), delta: field("delta"; $w),
           reason: .reason, where: $w}
          # the probability a reason for ∞ may refer to ("the probability above"); optional
          + (if has("infinite_loss_probability_per_coordinate")
             then {infinite_loss_probability_per_coordinate: .infinite_loss_probability_per_coordinate} else {} end));
# The one row of $rows that passes cond (and prefer, when several pass cond).
def one($rows; cond; prefer; $what):
  [$rows[] | select(cond)] as $all
  | (if ($all | length) > 1 then [$all[] | select(prefer)] else $all end) as $c
  | if ($c | length) == 1 then $c[0]
    else error("\($cert_file): \($all | length) guarantee rows \($what) (expected exactly one)") end;
# The row as summary.json keeps it; finite: the row applies and epsilon_hi is a finite number.
def shown:
  (.applies == true and .epsilon_lo != null
   and ((.epsilon_hi | type) == "number" or ((.epsilon_hi | type) == "string" and (.epsilon_hi | test("^[-+0-9.eE]+$"))))) as $finite
  | if $finite or .reason != null then .
    else error("\(.where): no finite epsilon_hi and no field \"reason\"") end
  | del(.where) + {finite: $finite};

guarantee_rows as $rows
| ($cert[0] | field("configuration"; $cert_file) | field("mechanism"; "\($cert_file): configuration")) as $cm
| if $cm != $mechanism then error("\($cert_file): configuration.mechanism is \($cm | tojson), expected \"\($mechanism)\"") else . end
| ([$rows[] | select(.notion == "none")] | first) as $none
| ($verify[0] | field("verified"; $verify_file)) as $verified
| if ($verified | type) != "boolean" then error("\($verify_file): verified is not true or false")
  elif $verified != ($verify_rc == 0) then error("\($verify_file): verified is \($verified) but the exit code was \($verify_rc)")
  else . end
| ($train[0] | field("final_test_accuracy"; $train_file)) as $acc
| if ($acc | type) != "number" then error("\($train_file): final_test_accuracy is not a number") else . end
| {mechanism: $mechanism,
   final_test_accuracy: $acc,
   train_seconds: ($train_ms / 1000),
   verify_seconds: ($verify_ms / 1000),
   verdict: (if $verified then "verified" else "NOT verified" end),
   verification_problems: ($verify[0] | field("problems"; $verify_file)),
   authenticity: ($verify[0] | field("authenticity"; $verify_file)),
   certificate: $cert_file,
   eps_p_per_round:
     (if $none then $none
      else one($rows; .unit == $per_parameter_unit and (.notion | contains($per_parameter_notion));
               (.notion + " " + .composition) | contains("implemented");
               "with unit \"\($per_parameter_unit)\" and a notion containing \"\($per_parameter_notion)\"")
      end | shown),
   central:
     (if $none then $none
      else one($rows; .notion == $central_notion; false; "with notion \"\($central_notion)\"")
      end | shown)}
'

# The table, from summary.json: two lines per run, one per guarantee row. Columns are padded by
# characters (jq counts code points).
TABLE_PROGRAM='
def pad($n): if length < $n then . + (" " * ($n - length)) else . end;
def lpad($n): if length < $n then (" " * ($n - length)) + . else . end;
def fixed($digits):  # a non-negative number rounded to $digits decimals
  (. * pow(10; $digits) | round | tostring) as $s
  | (("0" * ($digits + 1 - ($s | length))) // "") + $s
  | .[0:length - $digits] + "." + .[length - $digits:];
def epsilon: if .finite then "[\(.epsilon_lo | text), \(.epsilon_hi | text)]" else "∞" end;
def delta: if .delta == null then "-" else .delta | text end;
def note:  # the reason for ∞ (with the probability it may refer to) and the observer, a line each
  [(if .finite then empty else "∞: \(.reason)" end),
   (if .finite or .infinite_loss_probability_per_coordinate == null then empty
    else "infinite_loss_probability_per_coordinate: \(.infinite_loss_probability_per_coordinate | text)" end),
   (if .observer == "-" then empty else "observer: \(.observer)" end)]
  | join("\n    ");
. as $sum
| .settings as $s
| (reduce (.runs[] | .eps_p_per_round, .central | note) as $n ([]; if index([$n]) then . else . + [$n] end)) as $notes
| def ref($g): "[\(($notes | index([$g | note])) + 1)]";
  [["mechanism", "test acc", "train s", "verify s", "verdict", "guarantee", "epsilon [lo, hi]", "delta", "note"]]
  + [.runs[] | [.mechanism, (.final_test_accuracy | fixed(4)), (.train_seconds | fixed(1)), (.verify_seconds | fixed(1)),
                .verdict, "eps_p, 1 parameter, 1 round", (.eps_p_per_round | epsilon), (.eps_p_per_round | delta),
                ref(.eps_p_per_round)],
               ["", "", "", "", "", "central (PLD), all rounds", (.central | epsilon), (.central | delta), ref(.central)]]
| . as $t
| [range(0; $t[0] | length) as $j | [$t[][$j] | length] | max] as $w
| ["\($s.dataset), first \($s.max_samples) samples, \($s.clients) IID clients, \($s.rounds) rounds, model \($s.model), "
   + "\($s.local_epochs) local epochs, lr \($s.lr), seed \($s.seed), eps_p \($s.eps_p) per parameter per round", ""]
  + [$t[] | [range(0; length) as $j | .[$j] | if $j >= 1 and $j <= 3 then lpad($w[$j]) else pad($w[$j]) end]
     | join("  ") | sub(" +$"; "")]
  + [""] + [range(0; $notes | length) as $k | "[\($k + 1)] \($notes[$k])"]
  + ["", "verification: dpfl verify-certificate (no --replay); certificates \([$sum.runs[].authenticity] | unique | join(", "))",
     "accuracy per round, all three runs: \($sum.plot)", "summary: \($sum.summary)"]
| .[]
'

# jq_or_die ARGS...: jq's output, or its error message and exit 1.
jq_or_die() {
  local out err
  err="$(mktemp)"
  if ! out="$(jq "$@" 2>"$err")"; then
    local msg
    msg="$(cat "$err")"
    rm -f "$err"
    msg="${msg#jq: error (at *): }"  # keep the message of error() in the programs above
    die "${msg:-jq exited non-zero}"
  fi
  rm -f "$err"
  printf '%s\n' "$out"
}

now_ms() { local t="${EPOCHREALTIME//[!0-9]/}"; echo $((10#$t / 1000)); }  # microseconds -> ms

# --- The three runs ----------------------------------------------------------------------------
TRAIN_ARGS=(--dataset "$DATASET" --max-samples "$MAX_SAMPLES" --clients "$CLIENTS" --rounds "$ROUNDS"
            --eps-p "$EPS" --seed "$SEED" --model "$MODEL" --lr "$LR" --local-epochs "$LOCAL_EPOCHS"
            --workers "$WORKERS" --quiet)
rows=()
for m in "${MECHANISMS[@]}"; do
  run="$OUT/$m"
  step "$m: dpfl train ($DATASET, $MAX_SAMPLES samples, $CLIENTS clients, $ROUNDS rounds, eps_p $EPS, $WORKERS workers)"
  t0=$(now_ms)
  train_rc=0
  "$DPFL" train "${TRAIN_ARGS[@]}" --mechanism "$m" --out "$run" >"$OUT/$m.train.json" 2>"$OUT/$m.train.log" || train_rc=$?
  if [ "$train_rc" -ne 0 ]; then
    cat "$OUT/$m.train.log" >&2
    die "dpfl train --mechanism $m failed (exit $train_rc; log: $OUT/$m.train.log)"
  fi
  train_ms=$(( $(now_ms) - t0 ))
  [ -f "$run/certificate.json" ] || die "$run/certificate.json was not written"

  step "$m: dpfl verify-certificate"
  t0=$(now_ms)
  verify_rc=0
  "$DPFL" verify-certificate "$run/certificate.json" >"$OUT/$m.verify.json" 2>"$OUT/$m.verify.log" || verify_rc=$?
  verify_ms=$(( $(now_ms) - t0 ))
  if [ "$verify_rc" -gt 1 ]; then  # 1 is "not verified" (problems in the JSON); anything else is a failure to check
    cat "$OUT/$m.verify.log" >&2
    die "dpfl verify-certificate $run/certificate.json failed (exit $verify_rc)"
  fi

  rows+=("$(jq_or_die -n -c --arg mechanism "$m" \
    --arg train_file "$OUT/$m.train.json" --slurpfile train "$OUT/$m.train.json" \
    --arg cert_file "$run/certificate.json" --slurpfile cert "$run/certificate.json" \
    --arg verify_file "$OUT/$m.verify.json" --slurpfile verify "$OUT/$m.verify.json" \
    --argjson verify_rc "$verify_rc" --argjson train_ms "$train_ms" --argjson verify_ms "$verify_ms" \
    --arg per_parameter_unit "$PER_PARAMETER_UNIT" --arg per_parameter_notion "$PER_PARAMETER_NOTION" \
    --arg central_notion "$CENTRAL_NOTION" \
    "$JQ_LIB $ROW_PROGRAM")")
  step "$m: $(jq -r '"test accuracy \(.final_test_accuracy), \(.verdict)"' <<<"${rows[-1]}")"
done

step "dpfl plot compare"
runs=()
for m in "${MECHANISMS[@]}"; do runs+=("$OUT/$m"); done
"$DPFL" plot compare "${runs[@]}" --out "$OUT/accuracy_compare.png" >"$OUT/compare.json" 2>"$OUT/compare.log" ||
  { cat "$OUT/compare.log" >&2; die "dpfl plot compare failed (log: $OUT/compare.log)"; }
plot="$(jq_or_die -r --arg f "$OUT/compare.json" "$JQ_LIB"' field("plot"; $f) | strings' "$OUT/compare.json")"
[ -s "$plot" ] || die "$OUT/compare.json names the plot $plot, which is missing or empty"

# --- summary.json and the table ---------------------------------------------------------------
printf '%s\n' "${rows[@]}" | jq_or_die -s \
  --arg dataset "$DATASET" --argjson max_samples "$MAX_SAMPLES" --argjson clients "$CLIENTS" \
  --argjson rounds "$ROUNDS" --arg eps_p "$EPS" --argjson seed "$SEED" --arg model "$MODEL" \
  --argjson local_epochs "$LOCAL_EPOCHS" --arg lr "$LR" --argjson workers "$WORKERS" \
  --arg plot "$plot" --arg summary "$OUT/summary.json" --arg dpfl "$DPFL" \
  '{settings: {dataset: $dataset, max_samples: $max_samples, clients: $clients, rounds: $rounds,
               eps_p: ($eps_p | tonumber), seed: $seed, model: $model, local_epochs: $local_epochs,
               lr: ($lr | tonumber), workers: $workers, dpfl: $dpfl},
    runs: ., plot: $plot, summary: $summary}' >"$OUT/summary.json.tmp"
mv "$OUT/summary.json.tmp" "$OUT/summary.json"
jq_or_die -r "$JQ_LIB $TABLE_PROGRAM" "$OUT/summary.json"

failed="$(jq -r '[.runs[] | select(.verdict != "verified") | .mechanism] | join(", ")' "$OUT/summary.json")"
[ -z "$failed" ] || die "certificate NOT verified: $failed (problems in $OUT/MECHANISM.verify.json)"
