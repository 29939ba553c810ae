#!/usr/bin/env bash
# Session 32, call 4: E97b, plan Z10b (plan_z10b_from_e97.py: pooler M 6..64 and unpooler M 9..64 on
# wsl2.ls1) against plan Z9 in three plan A/B rounds (plan_ab_ship.sh), with the verdict fixed before
# the call: mean score change >= 0 and every changed scored case >= 0 (--score-min 0 --case-min 0).
# If it ships, its results in the same call (RESULTS=1: bench 400 pairs, check, A/A, fidelity, pytest,
# floor, GPU tests + memcheck, the 1..256 sweep at 300 pairs).
# Usage: tools/experiments/call4_s32.sh BIN OUT_DIR   (~1 min, ~6 min if it ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
(cd tools/experiments && python3 plan_z10b_from_e97.py ../../plans/h200.json "$O/plan-z10b.json")
LEFT_S=575 RESULTS=1 VERDICT_ARGS="--rounds 3 --score-min 0 --case-min 0" \
  tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$O/plan-z10b.json" Z10b
[ -f "$O/results.txt" ] && tail -25 "$O/results.txt"
echo "done ($SECONDS s)"
