#!/usr/bin/env bash
# Session 34, call 2, on call 1's binary with plan Z12 (call 1's rule and verdict: the router ring's
# lean start, wmc1.lf1.ls1, at router M 65..78, 82..98, 106..256). E102c: lf1.ls1 on the ring's three
# short ranges call 1 did not measure (rule plan_z12b_from_e102c.py, fixed before the call; no scored
# M: the unscored rule, and the plan A/B verdict that the mean score is >= -0.3 %). Correctness first
# (the router suites, `projkit check` of lf1.ls1 over router M 65..256). If plan Z12b ships: its
# results (RESULTS=1). Else: plan Z12's results (tools/device_results.sh, the same steps).
# Usage: tools/experiments/call2_s34.sh BIN OUT_DIR   (~6 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
RING=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily.*/2:RouterLayouts.*' \
  "router:65..256:$RING.lf1.ls1" "router:65..256:$RING.lf1"
RESULTS=1 LEFT_S=570 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e102c plan_z12b_from_e102c.py Z12b 100
if [ "$(cat "$O/ship.txt" 2>/dev/null)" != 1 ]; then
  echo "== results of plan Z12 ($(date +%T))"
  BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout $((575 - SECONDS)) tools/device_results.sh "$BIN" "$O/res" \
    "bench check aa fidelity pytest floor tests sweep" >"$O/results.txt" 2>&1; echo "results rc=$?"
  tail -45 "$O/results.txt"
fi
echo "done ($SECONDS s)"
