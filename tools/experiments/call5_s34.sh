#!/usr/bin/env bash
# Session 34, call 5: E104, splitk_mma_l2 lp2 (lp1 with an L2 prefetch of the CTA's first W line at
# entry; its address needs W's pointer and K, which sit in the parameters' two 64-byte constant-bank
# lines, so lp1's two serial cold reads become one). Correctness first: the split-K stream suite of
# splitk_mma_l2 (every config: fp64 reference, graph replay twice, two streams, NaN), LeanPrologue,
# `projkit check --method` of both lp2 configs over o M 1..32. Then the same-binary A/B (200 pairs) of
# plan_z14_from_e104.py's cases, its rule (fixed before the call), and if the plan moved, three plan
# A/B rounds with session 22's verdict and, if it ships, its results (RESULTS=1).
# Usage: tools/experiments/call5_s34.sh BIN OUT_DIR   (~2 min, ~7 min if the plan ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
L2=splitk_mma_l2.rows64.split1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/SplitkStream.*/0:LeanPrologue.*' \
  "o:1..32:$L2.lp2" "o:1..32:$L2.wk2.lp2"
RESULTS=1 LEFT_S=560 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e104 plan_z14_from_e104.py Z14 100
echo "done ($SECONDS s)"
