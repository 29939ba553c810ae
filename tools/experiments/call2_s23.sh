#!/usr/bin/env bash
# Session 23, call 2: E81, wgmma_tma with no K split and plain stores (st1).
# 1. correctness: the red5 GPU suite (every red5 config, st1 included: fp64 reference, poisoned y,
#    three launches per M) and `projkit check` of each st1 config over the ranges it could take;
# 2. the A/B (ab_configs.sh, 200 pairs, the incumbent first: the baseline for o at M >= 65, plan Z's
#    config for the unpooler and the pooler);
# 3. plan AA by plan_aa_from_e81.py (rule in its docstring); if it moved the plan, three plan A/B
#    rounds against plan Z and the ship verdict (plan_ab_ship.sh with RESULTS=0: every changed scored
#    case gains >= +0.5 % in mean paired ratio, the mean score change >= -0.3 %); the results of a
#    shipped plan are the next call's.
# (The call ran steps 1 and 3 inline; they moved into check_candidates.sh and rule_and_ship.sh, the
# same commands with the calls' longest timeouts, in the session's review.)
# Usage: tools/experiments/call2_s23.sh BIN OUT_DIR   (~3-8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/ab
W=wgmma_tma.bn128.
S64=${W}bm64.split1.mc1.stages8.xfit1.red5.rk1; S128=${W}bm128.split1.mc1.stages6.xfit1.red5.rk1
A64=$S64.st1; B64=$S64.wsl1.st1; A128=$S128.st1; B128=$S128.wsl1.st1
U128=${W}bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1; U192=${W}bm192.split2.mc1.stages5.xfit1.red5.rk1
U256=${W}bm256.split2.mc1.stages4.xfit1.red5.rk1.ki1; P256=${W}bm256.split4.mc1.stages4.xfit1.red5.rk1.ki1
tools/experiments/check_candidates.sh "$BIN" "$E" '*WgmmaTmaRed5*' \
  "o:65..128:$A64" "unpooler:65..128:$A64" "o:65..128:$B64" "unpooler:65..128:$B64" \
  "o:129..256:$A128" "unpooler:129..256:$A128" "o:129..256:$B128" "unpooler:129..256:$B128"
echo "== E81 A/B ($(date +%T))"
CASES="o:65:baseline,$A64,$B64 o:96:baseline,$A64,$B64 o:128:baseline,$A64,$B64 \
o:129:baseline,$A128,$B128 o:160:baseline,$A128,$B128 o:192:baseline,$A128,$B128 o:224:baseline,$A128,$B128 \
o:256:baseline,$A128,$B128 unpooler:96:$U128,$A64,$B64 unpooler:128:$U128,$A64,$B64 \
unpooler:160:$U192,$A128,$B128 unpooler:192:$U192,$A128,$B128 unpooler:224:$U256,$A128,$B128 \
unpooler:240:$U256,$A128,$B128 unpooler:256:$U256,$A128,$B128 pooler:256:$P256,$A64" TAG=e81 KEEP_JSON=1 \
  timeout 240 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-e81.txt"
tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_aa_from_e81.py AA
echo "done ($SECONDS s)"
