#!/usr/bin/env bash
# Session 32, call 8: E98, the unpooler's M 193..223 on the W pair (bm128.split1.wmc1) instead of the
# baseline (plan_z10c_from_e98.py, fixed before the call: session 23's rule for an unscored range).
# If the rule moves the plan, rule_and_ship.sh runs three plan A/B rounds with session 22's verdict
# (no scored case changes, so the verdict is the mean score's >= -0.3 %) and, if it ships, plan
# Z10c's results in the same call (RESULTS=1: bench 400 pairs, check, A/A, fidelity, pytest, floor,
# GPU tests + memcheck, the 1..256 sweep).
# Usage: tools/experiments/call8_s32.sh BIN OUT_DIR   (~2 min, ~7 min if the plan moves)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tools/experiments/check_candidates.sh "$BIN" "$O/ab" '' \
  "unpooler:193..223:wgmma_tma.bn128.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1"
RESULTS=1 LEFT_S=580 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e98 plan_z10c_from_e98.py Z10c 200
echo "done ($SECONDS s)"
