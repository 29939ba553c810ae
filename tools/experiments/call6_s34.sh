#!/usr/bin/env bash
# Session 34, call 6: E105, the router ring's ls1 with the multicast rest of its first fill issued in
# parallel, k-block j by lane 0 of warp j, instead of by thread 0 alone (pf1). Correctness first: the
# ring suite by its family name (every ring config), RouterLayouts, `projkit check --method` of pf1 over
# router M 1..256. Then the same-binary A/B (200 pairs) of plan_z15_from_e105.py's 19 cases, its rule
# (fixed before the call), and if the plan moved, three plan A/B rounds with session 22's verdict and,
# if it ships, its results (RESULTS=1).
# Usage: tools/experiments/call6_s34.sh BIN OUT_DIR   (~2 min, ~7 min if the plan ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily.*/router_hilo_ring:RouterLayouts.*' \
  "router:1..256:$R.pf1"
RESULTS=1 LEFT_S=560 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e105 plan_z15_from_e105.py Z15 100
echo "done ($SECONDS s)"
