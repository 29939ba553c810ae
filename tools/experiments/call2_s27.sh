#!/usr/bin/env bash
# Session 27, call 2: E89b, the listed configs call 1 found ahead, on every M the rule needs, and the
# ship of what wins.
# 1. correctness: `projkit check --method` of each candidate over the range the rule may give it;
# 2. the A/B (ab_configs.sh tag e89b, 200 pairs, the plan's method first): E85's wsl2.ls1 against
#    the plan's .ki1.wsl1 at qkv M 17 / 24 / 32 / 48 / 64, pooler M 8 / 16 / 32 / 64, unpooler M
#    16 / 32 / 64; the o wmc1 pair (bm64.split1) against the baseline at o M 33..71;
# 3. plan Z6 by plan_z6_from_e89.py (rule in its docstring); if it wrote one, plan_ab_ship.sh (three
#    plan A/B rounds against plan Z5b, session 22's verdict, and if it ships, its results).
# Usage: tools/experiments/call2_s27.sh BIN OUT_DIR   (~9 min if it ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
c() { echo "$W.bm$1.split$2.mc1.stages$3.xfit1.red5.rk1$4"; }
Q1=$(c 64 4 8 .ki1.wsl1); Q2=$(c 64 4 8 .ki1.wsl2.ls1); D1=$(c 64 2 8 .ki1.wsl1); D2=$(c 64 2 8 .ki1.wsl2.ls1)
P=$(c 64 1 8 .ki1.wmc1)
tools/experiments/check_candidates.sh "$BIN" "$O/ab" '' "qkv:17..64:$Q2" "pooler:6..64:$D2" "unpooler:9..64:$D2" "o:33..71:$P"
echo "== E89b A/B ($(date +%T))"
CASES=""
for m in 17 24 32 48 64; do CASES="$CASES qkv:$m:$Q1,$Q2"; done
for m in 8 16 32 64; do CASES="$CASES pooler:$m:$D1,$D2"; done
for m in 16 32 64; do CASES="$CASES unpooler:$m:$D1,$D2"; done
for m in 33 36 40 44 48 56 64 65 68 71; do CASES="$CASES o:$m:baseline,$P"; done
CASES=$CASES PAIRS=200 TAG=e89b KEEP_JSON=1 timeout 200 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e89b.txt"
# the rule / pack / ship tail with the results of a shipped plan (call 2 ran these commands inline)
RESULTS=1 LEFT_S=$((585 - SECONDS)) tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z6_from_e89.py Z6
echo "done ($SECONDS s)"
