#!/usr/bin/env bash
# Session 28, call 3: E91 (the lean start of two more streaming kernels) and the ship of plan Z8.
# 1. The router and dense-stream GPU suites (every router_hilo_stream and kperm_splitk_zw config, the
#    new ones included: fp64 reference, NaN / Inf, graph replay, two streams), and `projkit check
#    --method` of router_hilo_stream kw8.wn2.zw1.wf1 / kw8.wn4.zw1.wf1 over router M 1..64 and of
#    kperm_splitk_zw.wr4.wk2.u8.lp1 over the unpooler's M 1..16.
# 2. A/B (ab_configs.sh, 200 pairs, the plan's method first): router M 4 / 8 / 16 / 32 / 48 / 64,
#    unpooler M 3 / 4 / 5 / 8.
# 3. rule_and_ship.sh with plan_z8_from_e91.py: plan Z8 against plan Z7b (plans/h200.json), three
#    rounds, session 22's verdict; if it ships, its results.
# Usage: tools/experiments/call3_s28.sh BIN OUT_DIR   (~8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_stream; K=kperm_splitk_zw.wr4.wk2.u8
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/*:Dense/SplitkStream*' "router:1..64:$R.kw8.wn2.zw1.wf1" \
  "router:1..64:$R.kw8.wn4.zw1.wf1" "unpooler:1..16:$K.lp1"
echo "== E91 A/B ($(date +%T))"
CASES=""
for m in 4 8 16 32; do CASES="$CASES router:$m:$R.kw8.wn2.zw1,$R.kw8.wn2.zw1.wf1"; done
for m in 48 64; do CASES="$CASES router:$m:$R.kw8.wn4.zw1,$R.kw8.wn4.zw1.wf1"; done
for m in 3 4 5 8; do CASES="$CASES unpooler:$m:$K,$K.lp1"; done
CASES=$CASES PAIRS=200 TAG=e91 KEEP_JSON=1 timeout 150 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e91.txt"
RESULTS=1 LEFT_S=$((585 - SECONDS)) tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z8_from_e91.py Z8
echo "done ($SECONDS s)"
