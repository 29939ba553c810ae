#!/usr/bin/env bash
# Session 31, call 1: E96 (rotated adds, ar1) on the plan's split-K kernels at M 65..256, and the
# plan A/B of plan Z10 if the rule moves a range.
# 1. GPU tests: Router/* (every router config, the ring's ar1 included: fp64 reference, NaN / Inf,
#    graph replay twice, two streams) and Dense/WgmmaTmaRed5.* (every red5 config, the four ar1 ones
#    included: fp64 reference at 15 M, three launches each, flags reset).
# 2. `projkit check --method` of each ar1 config over the M its incumbent serves (router 1..256).
# 3. Same-binary A/B (ab_configs.sh, 200 pairs, the plan's method first): the cases of
#    plan_z10_from_e96.py --cases.
# 4. rule_and_ship.sh with plan_z10_from_e96.py (fixed before the call), RESULTS=0: three plan A/B
#    rounds with session 22's verdict; the results of a shipped plan are call 2's.
# Usage: tools/experiments/call1_s31.sh BIN OUT_DIR   (~7 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.ar1
W=wgmma_tma.bn128
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/*:Dense/WgmmaTmaRed5.*' \
  "router:1..256:$R" "qkv:65..128:$W.bm64.split3.mc1.stages8.xfit1.red5.rk1.ki1.wmc1.ar1" \
  "qkv:129..256:$W.bm256.split7.mc1.stages4.xfit1.red5.rk1.ki1.ko1.ar1" \
  "pooler:65..128:$W.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.ar1" \
  "pooler:129..256:$W.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.ar1"
grep -E "^\[  FAILED  \]" "$O/ab/gtest.txt" | head -8
echo "== E96 A/B ($(date +%T))"
CASES=$(cd tools/experiments && python3 plan_z10_from_e96.py --cases)
CASES=$CASES PAIRS=200 TAG=e96 KEEP_JSON=1 timeout 330 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e96.txt"
RESULTS=0 tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z10_from_e96.py Z10
echo "done ($SECONDS s)"
