#!/usr/bin/env bash
# Session 33, call 1: E100 (splitk_mma_l2 ms2 at o M 1..64) and E101 (router_hilo_ring wmc1.lf1 /
# lf2 at router M 65..256). Correctness first: the GPU suites of splitk_mma_l2 (every listed config,
# the ms2 ones included: fp64 reference, graph replay twice, two streams, NaN) and of
# router_hilo_ring (likewise, lf1 / lf2 included), then `projkit check --method` of each candidate
# over its family's ranges. Then the same-binary A/B (200 pairs) of plan_z11_from_e100.py's cases,
# its rule (fixed before the call), and if the plan moved, three plan A/B rounds with session 22's
# verdict and, if it ships, plan Z11's results (RESULTS=1) in the same call.
# E100 was refuted and its ms2 configs removed after this call (the code is in cf96ed9); the script and
# its rule stay as the record of E101, which shipped from them.
# Usage: tools/experiments/call1_s33.sh BIN OUT_DIR   (~3 min, ~7.5 min if the plan ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
L2=splitk_mma_l2.rows64.split1
RING=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/SplitkStream.*/0:Router/RouterFamily.*/2:LeanPrologue.*' \
  "o:1..64:$L2.wk2.lp1.ms2" "o:1..64:$L2.wk4.lp1.ms2" \
  "router:65..256:$RING.lf1" "router:65..256:$RING.lf2"
RESULTS=1 LEFT_S=570 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e100 plan_z11_from_e100.py Z11 300
echo "done ($SECONDS s)"
