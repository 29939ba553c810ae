#!/usr/bin/env bash
# Session 35, call 2: P38 and E106 (the split-1 W pairs' tile stored by bulk copies, bs1).
# 1. P38: tools/dev/red_drain.cu with its bulk variant (the same bytes as `store`, staged in smem and
#    stored by 256-byte bulk copies from one warp): does the TMA path drain a CTA's 16-32 KB faster
#    than 16-byte stores (P37: ~1 us)?
# 2. Correctness: the red5 suite (every red5 config, the three bs1 ones included, at 15 M per family),
#    `projkit check --method` of each bs1 candidate over the ranges it is measured on.
# 3. The same-binary A/B (200 pairs) of plan_z16_from_e106.py's 16 cases, its rule (fixed before the
#    call), and if the plan moved, three plan A/B rounds with session 22's verdict (RESULTS=0: a
#    shipped plan's results are the next call's).
# Usage: tools/experiments/call2_s35.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== P38: red_drain with the bulk variant ($(date +%T))"
timeout 120 "$BIN/projkit_dev_red_drain" --reps 30 --stream-kb 64 >"$O/p38.txt" 2>&1
echo "red_drain rc=$?"; cat "$O/p38.txt"
W=wgmma_tma.bn128
P64=$W.bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1
P128=$W.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/WgmmaTmaRed5.*' \
  "o:65..128:$P64.bs1" "unpooler:65..128:$P64.bs1" "o:129..256:$P128.bs1" "o:129..256:$P128.xsh1.bs1" \
  "o:129..256:$P128" "unpooler:193..223:$P128.xsh1.bs1" "unpooler:224..256:$P128.bs1"
RESULTS=0 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e106 plan_z16_from_e106.py Z16 300
echo "done ($SECONDS s)"
