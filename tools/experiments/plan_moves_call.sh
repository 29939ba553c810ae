#!/usr/bin/env bash
# A plan's moves, judged on the device by session 36's rule (plan_h100_leads.py's `decide`). Grew
# out of session 36's call 5 (as run: `git show 90eea74:tools/experiments/call5_s36.sh`), generalised
# in session 38 so that either chip's plan is judged without a copy of the block: the plan file is
# the one `projkit info` names for the device, the moves come from plan_h100_leads.py's arguments
# (--moves c5, or --moves-file F).
# OLD = plans/<the device's plan file>; NEW = OLD with the moves. The default bench is not A/B'd: a
# move that touches a scored load (M 1, 8, 16, 32, 128, 256) needs its own A/B call.
# 1. `projkit check` of NEW; 2. the 1..256 sweeps (300 pairs) of OLD then NEW; the rule -> FINAL;
# 3. FINAL's results: the default bench (400 pairs); if FINAL differs from NEW, its check and sweep
#    again (else NEW's are FINAL's); the GPU test binary if time is left.
# Stops at once when `projkit info` names no plan file, or the plans dir has none of that name.
# Usage: tools/experiments/plan_moves_call.sh BIN_DIR OUT_DIR MOVES_ARGS...   (~6 min)
#   e.g. ... bin $OUT/c2 --moves-file tools/experiments/moves_s38.json
set -u
BIN=${1:?}; O=${2:?}; shift 2; MOVES=("$@"); [ ${#MOVES[@]} -gt 0 ] || { echo "no moves given"; exit 2; }
mkdir -p "$O/work/plans" "$O/res"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "== device: $name ($(date +%T))"
W=$O/work; PD=$W/plans; P=$BIN/projkit
PLAN_FILE=$("$P" info 2>/dev/null | sed -n 's/^plan file for this device: \([^ ]*\).*/\1/p')
[ -n "$PLAN_FILE" ] && [ -f "plans/$PLAN_FILE" ] || { echo "no plan file for this device ('$PLAN_FILE'): stop"; exit 3; }
echo "plan file: $PLAN_FILE"
cp "plans/$PLAN_FILE" "$W/old.json"
python3 tools/experiments/plan_h100_leads.py "${MOVES[@]}" build "$W/old.json" "$W/new.json" | tee "$W/build.txt"
echo "== check NEW ($(date +%T))"
"$P" check --plan "$W/new.json" --json "$W/check-new.json" >"$W/check-new.txt" 2>&1; echo "check rc=$?"; tail -1 "$W/check-new.txt"
for v in old new; do
  echo "== sweep $v ($(date +%T))"
  "$P" bench --m-sweep 1..256 --pairs 300 --plan "$W/$v.json" --json "$W/sweep-$v.json" >"$W/sweep-$v.txt" 2>&1
  echo "sweep $v rc=$?"; grep "^score" "$W/sweep-$v.txt"
done
echo "== rule ($(date +%T))"
python3 tools/experiments/plan_h100_leads.py "${MOVES[@]}" decide "$W/old.json" "$W/new.json" "$W/sweep-old.json" \
  "$W/sweep-new.json" "$W/final.json" | tee "$W/decide.txt"
cp "$W/final.json" "$PD/$PLAN_FILE"; cp "$W/final.json" "$O/plan-final.json"
export PROJKIT_PLAN_DIR=$PD
echo "== results of FINAL ($(date +%T))"
"$P" bench --pairs 400 --json "$O/res/bench-default.json" >"$O/res/bench-default.txt" 2>&1; echo "bench rc=$?"
grep "^score" "$O/res/bench-default.txt"
if cmp -s "$W/final.json" "$W/new.json"; then
  echo "FINAL = NEW: its check and sweep are NEW's"
  cp "$W/check-new.json" "$O/res/check.json"; cp "$W/check-new.txt" "$O/res/check.txt"
  cp "$W/sweep-new.json" "$O/res/bench-sweep.json"; cp "$W/sweep-new.txt" "$O/res/bench-sweep.txt"
else
  "$P" check --json "$O/res/check.json" >"$O/res/check.txt" 2>&1; echo "check rc=$?"; tail -1 "$O/res/check.txt"
  "$P" bench --m-sweep 1..256 --pairs 300 --json "$O/res/bench-sweep.json" >"$O/res/bench-sweep.txt" 2>&1
  echo "sweep rc=$?"; grep "^score" "$O/res/bench-sweep.txt"
fi
if [ $SECONDS -lt 420 ]; then
  echo "== GPU tests ($(date +%T))"
  "$BIN/projkit_gpu_tests" >"$O/res/gpu-tests.txt" 2>&1; echo "gpu tests rc=$?"; tail -1 "$O/res/gpu-tests.txt"
else
  echo "GPU tests not run ($SECONDS s used)"
fi
python3 - "$O/res" <<'PY'
import json, sys
d = sys.argv[1]
s = json.load(open(d + '/bench-sweep.json'))
for fam in ('qkv', 'o', 'pooler', 'unpooler', 'router'):
    cs = [c for c in s['cases'] if c['family'] == fam]
    w = min(cs, key=lambda c: c['ratio'])
    print(f"sweep {fam:9s} min {w['ratio']:.3f} at M {w['m']} ({w['method']}); below 0.98: "
          f"{[c['m'] for c in cs if c['ratio'] < 0.98] or '-'}")
c = json.load(open(d + '/check.json'))
print('check:', len(c['cases']), 'cases,', sum(not x['pass'] for x in c['cases']), 'failed')
PY
tar cJf "$O/res.tar.xz" -C "$O" res && tar cJf "$O/work.tar.xz" -C "$O" work && rm -rf "${O:?}/res" "${O:?}/work"
echo "== done ($(date +%T), $SECONDS s)"
