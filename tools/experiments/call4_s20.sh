#!/usr/bin/env bash
# Session 20, call 4: E70 (one more ring stage on the plan's bm64 / bm128 red5 configs) and, by the
# rule in plan_w_from_e70.py (fixed before the run), plan W = plan V (plans/h200.json after call 3)
# with ranges moved to the twins; if it moved, two plan A/B rounds (V = O against W = Q, 200 pairs).
# Usage: tools/experiments/call4_s20.sh BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tools/experiments/e70_deeper_ring.sh "$BIN" "$O" | tee "$O/e70.txt"
cp plans/h200.json "$O/plan-v.json"
python3 tools/experiments/plan_w_from_e70.py "$O/e70" plans/h200.json "$O/plan-w.json" | tee "$O/plan-w.txt"
rm -rf "$O/e70"  # e70.tar.xz holds everything
if [ -f "$O/plan-w.json" ]; then
  for round in 1 2; do
    echo "== plan A/B round $round ($(date +%T))"
    tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" "$O/plan-v.json" "$O/plan-w.json" 2>&1 | head -40
  done
  tar cJf "$O/ab.tar.xz" -C "$O" ab1 ab2 && rm -rf "$O/ab1" "$O/ab2"
fi
ls "$O"
