#!/usr/bin/env bash
# Session 29, call 1: E93 (router_hilo_stream's x loaders) and E93b (o M 17..32 on wk2.lp1), and if
# the rule moves a range, the ship of plan Z8 with its results.
# 1. GPU tests: Router/* (every router config, the six xl ones included: fp64 reference, NaN / Inf,
#    graph replay twice, two streams), RouterStreamXLoaders.*, Dense/SplitkStream.* (every
#    splitk_mma_l2 config, stages8.wk2.lp1 included), LeanPrologue.*, RouterLayouts.*.
# 2. `projkit check --method` of each new config over router M 1..32 / 1..64 / 1..256 (xl1) and o
#    M 1..32.
# 3. Same-binary A/B (ab_configs.sh, 200 pairs, the plan's method first): router M 4 / 8 / 16 / 24 /
#    32 (kw8.wn2.zw1 and its xl1..3), M 33 / 48 / 64 (kw8.wn4.zw1 and its xl1..3); o M 17 / 24 / 32
#    (stages8, stages8.wk2.lp1, wk2.lp1).
# 4. rule_and_ship.sh with plan_z8_from_e93.py (fixed before the call): plan Z8 against Z7b, three
#    plan A/B rounds with session 22's verdict, and if it ships, its results (bench 400 pairs, check,
#    A/A, fidelity, pytest, floor, GPU tests + memcheck, the sweep at 300 pairs).
# Usage: tools/experiments/call1_s29.sh BIN OUT_DIR   (~9 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=router_hilo_stream
L=splitk_mma_l2.rows64.split1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/*:RouterStreamXLoaders.*:Dense/SplitkStream.*:LeanPrologue.*:RouterLayouts.*' \
  "router:1..256:$S.kw8.wn2.zw1.xl1" "router:1..32:$S.kw8.wn2.zw1.xl2" "router:1..32:$S.kw8.wn2.zw1.xl3" \
  "router:1..256:$S.kw8.wn4.zw1.xl1" "router:1..64:$S.kw8.wn4.zw1.xl2" "router:1..64:$S.kw8.wn4.zw1.xl3" \
  "o:1..32:$L.stages8.wk2.lp1" "o:17..32:$L.wk2.lp1"
grep -E "^\[  FAILED  \]" "$O/ab/gtest.txt" | head -8
echo "== E93 A/B ($(date +%T))"
CASES=""
for m in 4 8 16 24 32; do CASES="$CASES router:$m:$S.kw8.wn2.zw1,$S.kw8.wn2.zw1.xl1,$S.kw8.wn2.zw1.xl2,$S.kw8.wn2.zw1.xl3"; done
for m in 33 48 64; do CASES="$CASES router:$m:$S.kw8.wn4.zw1,$S.kw8.wn4.zw1.xl1,$S.kw8.wn4.zw1.xl2,$S.kw8.wn4.zw1.xl3"; done
for m in 17 24 32; do CASES="$CASES o:$m:$L.stages8,$L.stages8.wk2.lp1,$L.wk2.lp1"; done
CASES=$CASES PAIRS=200 TAG=e93 KEEP_JSON=1 timeout 200 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e93.txt"
RESULTS=1 LEFT_S=$((585 - SECONDS)) tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z8_from_e93.py Z8
echo "done ($SECONDS s)"
