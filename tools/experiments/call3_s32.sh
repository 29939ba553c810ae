#!/usr/bin/env bash
# Session 32, call 3: E97, P31's leads at the scored loads, A/B'd over their ranges (no code change).
# 1. `projkit check --method` of each candidate over the range it would take.
# 2. Same-binary A/B (ab_configs.sh, 200 pairs, the plan's method first): the cases of
#    plan_z10_from_e97.py --cases.
# 3. rule_and_ship.sh with plan_z10_from_e97.py (fixed before the call), RESULTS=0: three plan A/B
#    rounds with session 22's verdict; the results of a shipped plan are a later call's.
# Usage: tools/experiments/call3_s32.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
S=wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" '' "pooler:65..128:$S.wmc1" \
  "pooler:6..64:$S.wsl2.ls1" "pooler:6..64:$S.wsl2" "unpooler:9..64:$S.wsl2.ls1" "unpooler:9..64:$S.wsl2"
RESULTS=0 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e97 plan_z10_from_e97.py Z10 400
echo "done ($SECONDS s)"
