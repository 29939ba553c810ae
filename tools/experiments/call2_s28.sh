#!/usr/bin/env bash
# Session 28, call 2: E90b and the ship of plan Z7b.
# 1. E90b (rule plan_z7b_from_e90b.py, fixed before the call): `projkit check --method` of the two
#    lp1 configs where they are new, then ab_configs.sh (200 pairs, the plan's method first): pooler
#    M 1 on gemv_stream.rows2.warps8.eq1.mb4.lp1; the unpooler slice at M 3 / 4 / 5 / 8 on
#    gemv_stream.rows4.warps8.lp1 against kperm_splitk_zw.wr4.wk2.u8.
# 2. rule_and_ship.sh: plan Z7b (call 1's plan Z7 plus E90b's moves), three plan A/B rounds against
#    plan Z6c (plans/h200.json) with session 22's verdict, and if it ships its results (bench 400
#    pairs, check, A/A, fidelity, pytest, floor, GPU tests + memcheck, the sweep at 300 pairs).
# Usage: tools/experiments/call2_s28.sh BIN OUT_DIR   (~8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
G=gemv_stream
tools/experiments/check_candidates.sh "$BIN" "$O/ab" '' "pooler:1..1:$G.rows2.warps8.eq1.mb4.lp1" \
  "unpooler:1..8:$G.rows4.warps8.lp1"
echo "== E90b A/B ($(date +%T))"
CASES="pooler:1:$G.rows2.warps8,$G.rows2.warps8.eq1.mb4.lp1"
for m in 3 4 5 8; do CASES="$CASES unpooler:$m:kperm_splitk_zw.wr4.wk2.u8,$G.rows4.warps8.lp1"; done
CASES=$CASES PAIRS=200 TAG=e90b KEEP_JSON=1 timeout 120 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e90b.txt"
RESULTS=1 LEFT_S=$((585 - SECONDS)) tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z7b_from_e90b.py Z7b
echo "done ($SECONDS s)"
