#!/usr/bin/env bash
# Session 20, call 3: E69 (gemv_stream rows2.warps8 with 4 blocks per SM, alone and with E67's
# eq1) and, by the rule in plan_v_from_e69.py (fixed before the run), plan V = plan T2 with qkv /
# pooler M 1 moved; if it moved, two plan A/B rounds (plan_ab_q.sh: T2 = O against V = Q, 200 pairs,
# O Q Q O). The full results of plan V are the next call (device_results.sh).
# Usage: tools/experiments/call3_s20.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tools/experiments/e69_gemv_residency.sh "$BIN" "$O" | tee "$O/e69.txt"
tar xJf "$O/e69/bench-e69.tar.xz" -C "$O/e69"
cp plans/h200.json "$O/plan-t2.json"
python3 tools/experiments/plan_v_from_e69.py "$O/e69" plans/h200.json "$O/plan-v.json" | tee "$O/plan-v.txt"
rm -f "$O"/e69/b-e69-*.json && rm -rf "$O/e69"  # e69.tar.xz holds them
if [ -f "$O/plan-v.json" ]; then
  for round in 1 2; do
    echo "== plan A/B round $round ($(date +%T))"
    tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" "$O/plan-t2.json" "$O/plan-v.json" 2>&1 | head -40
  done
  tar cJf "$O/ab.tar.xz" -C "$O" ab1 ab2 && rm -rf "$O/ab1" "$O/ab2"
fi
ls "$O"
