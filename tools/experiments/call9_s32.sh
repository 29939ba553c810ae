#!/usr/bin/env bash
# Session 32, call 9: E99, the W pairs' last token tile with its x box shifted inside x (xsh1, KORD bit
# 256; the 32 existing wgmma_tma kernels' .text byte-identical), where plan Z10b's pairs have a
# partial second tile, and at the unpooler's M 193..223 against the baseline (E98's case).
# 1. GPU tests Dense/WgmmaTmaRed5.* (every red5 config, the three xsh1 ones included: fp64 reference,
#    three launches, flags reset) and `projkit check --method` of each xsh1 config over its ranges.
# 2. Same-binary A/B (ab_configs.sh, 200 pairs): the cases of plan_z10c_from_e99.py --cases.
# 3. rule_and_ship.sh with plan_z10c_from_e99.py (fixed before the call): if it moves the plan, three
#    plan A/B rounds with session 22's verdict (no scored case changes: the mean score's >= -0.3 %)
#    and, if it ships, plan Z10c's results (RESULTS=1).
# Usage: tools/experiments/call9_s32.sh BIN OUT_DIR   (~2 min, ~7 min if the plan moves)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
X=wgmma_tma.bn128
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/WgmmaTmaRed5.*' \
  "qkv:84..127:$X.bm64.split3.mc1.stages8.xfit1.red5.rk1.ki1.wmc1.xsh1" \
  "o:72..127:$X.bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1.xsh1" \
  "unpooler:88..117:$X.bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1.xsh1" \
  "unpooler:193..255:$X.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.xsh1"
grep -E "^\[  FAILED  \]" "$O/ab/gtest.txt" | head -8
RESULTS=1 LEFT_S=420 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e99 plan_z10c_from_e99.py Z10c 240
echo "done ($SECONDS s)"
