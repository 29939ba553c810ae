#!/usr/bin/env bash
# Session 25, call 1: E84 (router_hilo_ring with x multicast over its 4 row tiles, xmc4), its ship
# step if the rule moves the plan, and P25 (the small-M dense kernels' fixed cost against their
# stream rate).
# E84: 1. correctness: the Router GPU suite (every router config, both xmc4 configs included: fp64
#         reference at every M of the suite, NaN / Inf, graph replay twice, two Projections on two
#         streams) and `projkit check` of both xmc4 configs over router M 1..256;
#      2. the A/B (ab_configs.sh, 200 pairs, the plan's early1.wmc1 first) at M 65..256;
#      3. plan Z5 by plan_z5_from_e84.py (rule in its docstring);
#      4. if it wrote plan Z5: plan_ab_ship.sh (three plan A/B rounds against plan Z4, session 22's
#         verdict, and if it ships, its results) in the seconds left.
# P25: tools/experiments/p25_intercepts.sh (production binary only), before the ship step.
# Usage: tools/experiments/call1_s25.sh BIN OUT_DIR   (~9 min if it ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1
W=$R.wmc1; X1=$R.xmc4; X2=$W.xmc4
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily*' "router:1..256:$X1" "router:1..256:$X2"
echo "== E84 A/B ($(date +%T))"
CASES=""
for m in 65 80 96 128 160 192 224 256; do CASES="$CASES router:$m:$W,$X1,$X2"; done
CASES=$CASES PAIRS=200 TAG=e84 KEEP_JSON=1 timeout 200 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e84.txt"
(cd tools/experiments && python3 plan_z5_from_e84.py "$O/ab" ../../plans/h200.json "$O/plan-z5.json") | tee "$O/plan-rule.txt"
rm -f "$O"/ab/b-*.json
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
echo "== P25 ($(date +%T), $SECONDS s)"
timeout 200 tools/experiments/p25_intercepts.sh "$BIN" "$O/p25" | tail -25
if [ -f "$O/plan-z5.json" ]; then
  LEFT_S=$((585 - SECONDS)) tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$O/plan-z5.json" Z5
fi
echo "done ($SECONDS s)"
