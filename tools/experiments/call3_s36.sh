#!/usr/bin/env bash
# Session 36, call 3: the H100 plan's leads (tools/experiments/plan_h100_leads.py, rule fixed before
# this call). OLD = plans/h100-80gb-hbm3.json (call 2's port, pruned); NEW = OLD with call 2's seven
# tune leads moved onto their ranges.
# 1. `projkit check` of NEW over M 1..256.
# 2. The 1..256 sweep (300 pairs) of OLD, then of NEW; the rule keeps each move or reverts it -> FINAL.
# 3. Information: the default bench, OLD NEW NEW OLD (200 pairs each).
# 4. FINAL's results under the device's plan name (PROJKIT_PLAN_DIR): default bench (400 pairs),
#    check, the sweep (300 pairs), then the GPU test binary.
# Stops at once on any device other than an H100.
# Usage: tools/experiments/call3_s36.sh BIN_DIR OUT_DIR   (~7 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/work/plans"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "== device: $name ($(date +%T))"
case "$name" in *"H100 80GB HBM3"*) ;; *) echo "not an H100 80GB HBM3: stop"; exit 3 ;; esac
W=$O/work; PD=$W/plans
cp plans/h100-80gb-hbm3.json "$W/old.json"
python3 tools/experiments/plan_h100_leads.py build "$W/old.json" "$W/new.json" | tee "$W/build.txt"
P=$BIN/projkit
echo "== check NEW ($(date +%T))"
"$P" check --plan "$W/new.json" --json "$W/check-new.json" >"$W/check-new.txt" 2>&1; echo "check rc=$?"; tail -2 "$W/check-new.txt"
for v in old new; do
  echo "== sweep $v ($(date +%T))"
  "$P" bench --m-sweep 1..256 --pairs 300 --plan "$W/$v.json" --json "$W/sweep-$v.json" >"$W/sweep-$v.txt" 2>&1
  echo "sweep $v rc=$?"; grep "^score" "$W/sweep-$v.txt"
done
echo "== rule ($(date +%T))"
python3 tools/experiments/plan_h100_leads.py decide "$W/old.json" "$W/new.json" "$W/sweep-old.json" "$W/sweep-new.json" \
  "$W/final.json" | tee "$W/decide.txt"
echo "== default bench A/B, OLD NEW NEW OLD ($(date +%T))"
i=0
for v in old new new old; do
  i=$((i + 1))
  "$P" bench --pairs 200 --plan "$W/$v.json" --json "$W/ab-$i-$v.json" >"$W/ab-$i-$v.txt" 2>&1
  echo "$v: $(grep -m1 '^score' "$W/ab-$i-$v.txt")"
done
cp "$W/final.json" "$PD/h100-80gb-hbm3.json"
cp "$W/final.json" "$O/plan-final.json"
export PROJKIT_PLAN_DIR=$PD
"$P" info >"$W/info-final.txt" 2>&1
grep -q "^plan: .*h100-80gb-hbm3.json" "$W/info-final.txt" || { echo "FINAL did not load"; head "$W/info-final.txt"; }
echo "== results of FINAL ($(date +%T))"
BENCH_PAIRS=400 SWEEP_PAIRS=300 tools/device_results.sh "$BIN" "$O/res" "bench check sweep" >"$W/res.txt" 2>&1
echo "results rc=$?"
echo "== GPU tests ($(date +%T))"
"$BIN/projkit_gpu_tests" >"$W/gpu-tests.txt" 2>&1; echo "gpu tests rc=$?"; tail -1 "$W/gpu-tests.txt"
tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "${O:?}/res"
tar cJf "$O/work.tar.xz" -C "$O" work
echo "== summary ($(date +%T))"
cat "$W/decide.txt"
tail -n 40 "$W/res.txt"
rm -rf "${O:?}/work"
