#!/usr/bin/env bash
# Session 27, call 5: E89c, one slab copy for qkv. Plan Z6 holds two copies of qkv's W (wsl1 at M
# 2..16 and 65..83, wsl2.ls1 at M 17..64). Moving both wsl1 ranges to wsl2.ls1 (at bm 128 new in
# E89c) frees one (37.7 MB per qkv Projection) if it costs nothing:
# 1. the Dense/WgmmaTmaRed5 GPU suite (every red5 config, the new bm128 wsl2.ls1 included) and
#    `projkit check --method` of both wsl2.ls1 configs over qkv M 2..16 / 65..83;
# 2. the A/B (ab_configs.sh tag e89c, 200 pairs): .wsl1 against .wsl2.ls1 at qkv M 2 / 4 / 8 / 12 / 16
#    (bm64.split4) and 65 / 72 / 80 / 83 (bm128.split4);
# 3. plan Z6c by plan_z6c_from_e89c.py (a tie rule: every M >= -0.5 %); if it wrote one, three plan
#    A/B rounds against Z6 (plan_ab_q.sh) and a tie-tolerant verdict (mean score >= -0.3 %, qkv M 8 /
#    16 each >= -0.5 %); if it ships, its results (as plan_ab_ship.sh's) in the time left.
# Usage: tools/experiments/call5_s27.sh BIN OUT_DIR   (~8 min if it ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1
V=wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/WgmmaTmaRed5*' "qkv:2..16:$W.wsl2.ls1" "qkv:65..83:$V.wsl2.ls1"
echo "== E89c A/B ($(date +%T))"
CASES=""
for m in 2 4 8 12 16; do CASES="$CASES qkv:$m:$W.wsl1,$W.wsl2.ls1"; done
for m in 65 72 80 83; do CASES="$CASES qkv:$m:$V.wsl1,$V.wsl2.ls1"; done
CASES=$CASES PAIRS=200 TAG=e89c KEEP_JSON=1 timeout 120 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e89c.txt"
# the rule / pack / ship tail with a tie-tolerant verdict and the results of a shipped plan (call 5
# ran these commands inline)
RESULTS=1 LEFT_S=$((580 - SECONDS)) \
  VERDICT_ARGS="--rounds 3 --score-min -0.003 --need qkv:8:-0.005 --need qkv:16:-0.005" \
  tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z6c_from_e89c.py Z6c
echo "done ($SECONDS s)"
