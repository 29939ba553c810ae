#!/usr/bin/env bash
# Session 20, call 5: E71 (gemv_bulk_ring at M 1..4) and, by the rule in plan_x_from_e71.py (fixed
# before the run), plan X = plan V (plans/h200.json) with M 1..4 sub-ranges moved; if it moved,
# two plan A/B rounds (V = O against X = Q, 200 pairs, O Q Q O).
# Usage: tools/experiments/call5_s20.sh BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tools/experiments/e71_gemv_bulk_ring.sh "$BIN" "$O" | tee "$O/e71.txt"
cp plans/h200.json "$O/plan-v.json"
python3 tools/experiments/plan_x_from_e71.py "$O/e71" plans/h200.json "$O/plan-x.json" | tee "$O/plan-x.txt"
rm -rf "$O/e71"  # e71.tar.xz holds everything
[ -f "$O/plan-x.json" ] && tools/experiments/plan_ab_rounds.sh "$BIN" "$O" "$O/plan-v.json" "$O/plan-x.json"
ls "$O"
