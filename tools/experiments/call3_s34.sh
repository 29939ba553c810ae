#!/usr/bin/env bash
# Session 34, call 3: E103, x's tensor map prefetched at entry by a warp other than thread 0, so the
# driver constant thread 0's first x box needs (the param space's address; cold after the flush, read
# after its barriers) and the descriptor are requested while thread 0 arms its barriers: the router
# ring's lean start (wmc1.lf1.ls2, by the producer warp) and the dense slab configs' (wsl2.ls1.tp1, by
# the producer warpgroup's fourth warp). Correctness first: the router ring suite (every ring config;
# call 1 and 2's filter 'Router/RouterFamily.*/2' matched no test, the suite names its parameter by
# family), the red5 and split-K stream suites, `projkit check --method` of each candidate over its
# ranges. Then the same-binary A/B (200 pairs) of plan_z13_from_e103.py's cases, its rule (fixed
# before the call), and if the plan moved, three plan A/B rounds with session 22's verdict and, if it
# ships, its results (RESULTS=1).
# Usage: tools/experiments/call3_s34.sh BIN OUT_DIR   (~4 min, ~8.5 min if the plan ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1
W=wgmma_tma.bn128
tools/experiments/check_candidates.sh "$BIN" "$O/ab" \
  'Router/RouterFamily.*/router_hilo_ring:Dense/WgmmaTmaRed5.*:Dense/SplitkStream.*/2' \
  "router:65..256:$R.ls2" \
  "qkv:2..64:$W.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl2.ls1.tp1" \
  "qkv:65..83:$W.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl2.ls1.tp1" \
  "pooler:6..64:$W.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl2.ls1.tp1" \
  "unpooler:9..64:$W.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl2.ls1.tp1"
RESULTS=1 LEFT_S=575 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e103 plan_z13_from_e103.py Z13 150
echo "done ($SECONDS s)"
