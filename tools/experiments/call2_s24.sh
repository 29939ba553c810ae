#!/usr/bin/env bash
# Session 24, call 2: P24 (call1_s24.sh, which the device refused twice as call 1) and E83,
# router_hilo_ring with W multicast over the two token slices (wmc1).
# E83: 1. correctness: the Router GPU suite (every router config, wmc1 included: fp64 reference at
#         every M of the suite, NaN / Inf, graph replay twice, two Projections on two streams) and
#         `projkit check` of wmc1 over router M 1..256;
#      2. the A/B (ab_configs.sh, 200 pairs, the plan's config first) at M 65..256;
#      3. plan Z3 by plan_from_e83.py (rule in its docstring), the rule only: a moved plan's A/B
#         rounds and results are the next call's.
# Usage: tools/experiments/call2_s24.sh BIN STAMPS_BIN OUT_DIR   (~8 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1
W=$R.early1.wmc1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily*' "router:1..256:$W"
echo "== E83 A/B ($(date +%T))"
CASES="router:65:$R,$W router:72:$R,$W router:78:$R,$W router:106:$R.early1,$W router:128:$R.early1,$W \
router:160:$R.early1,$W router:192:$R.early1,$W router:224:$R.early1,$W router:256:$R.early1,$W" \
  PAIRS=200 TAG=e83 KEEP_JSON=1 timeout 300 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e83.txt"
(cd tools/experiments && python3 plan_from_e83.py "$O/ab" ../../plans/h200.json "$O/plan-z3.json") | tee "$O/plan-rule.txt"
rm -f "$O"/ab/b-*.json
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
echo "== P24 ($(date +%T), $SECONDS s)"
tools/experiments/call1_s24.sh "$BIN" "$SBIN" "$O/p24" | tail -40
echo "done ($SECONDS s)"
