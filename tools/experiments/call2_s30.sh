#!/usr/bin/env bash
# Session 30, call 2: E95 in a matched context, then the ship of plan Z9 if the rule moves it.
# 1. The whole GPU suite (call 1 failed Dense/SplitkStream.TwoProjectionsOnTwoStreams/6: the test
#    knew qkv only, which fragment_stream_zw does not take; it and the NaN test now fall back to
#    the unpooler slice).
# 2. Context-matched A/B (plan_z9_from_e95.py): plans PA / PB prepare the same methods and differ in
#    which runs at unpooler M 3..8; `projkit bench --plan` of the unpooler at M 2, 3, 5, 8, PA PB PB
#    PA, 300 pairs.
# 3. rule_and_ship.sh with plan_z9_from_e95.py (fixed before the call): three plan A/B rounds of Z9
#    against Z8b with session 22's verdict (RESULTS=0: the results are call 3's; a first attempt
#    with RESULTS=1 lost its machine before it returned anything).
# Usage: tools/experiments/call2_s30.sh BIN OUT_DIR   (~8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tools/experiments/gpu_suite.sh "$BIN" "$O"
echo "== E95 context-matched A/B ($(date +%T))"
(cd tools/experiments && python3 plan_z9_from_e95.py pair ../../plans/h200.json "$O/ab") >/dev/null
for r in PA1 PB1 PB2 PA2; do
  P=$O/ab/$(echo "${r:0:2}" | tr '[:upper:]' '[:lower:]').json
  timeout 90 "$BIN/projkit" bench --pairs 300 --plan "$P" --families unpooler --loads 2,3,5,8 \
    --json "$O/ab/ctx-$r.json" >"$O/ab/ctx-$r.txt" 2>&1 || echo "bench $r rc=$?"
done
RESULTS=0 LEFT_S=$((585 - SECONDS)) tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z9_from_e95.py Z9
echo "done ($SECONDS s)"
