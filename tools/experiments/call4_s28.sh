#!/usr/bin/env bash
# Session 28, call 4: E92 (gemv_stream lp2: lp1 with 32-bit weight offsets) and the ship of plan Z9.
# 1. Dense/SplitkStream (every gemv_stream config, lp2 included) and `projkit check --method` of the
#    two lp2 configs over the unpooler M 1..8, qkv and pooler M 1.
# 2. A/B (ab_configs.sh, 200 pairs, plan Z7b's lp1 method first): unpooler M 1 / 2, qkv M 1, pooler M 1.
# 3. rule_and_ship.sh with plan_z9_from_e92.py: plan Z9 against plan Z7b, three rounds, session 22's
#    verdict; if it ships, its results.
# Usage: tools/experiments/call4_s28.sh BIN OUT_DIR   (~8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
G=gemv_stream
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/SplitkStream*' "unpooler:1..8:$G.rows4.warps8.lp2" \
  "qkv:1..1:$G.rows2.warps8.eq1.mb4.lp2" "pooler:1..1:$G.rows2.warps8.eq1.mb4.lp2"
echo "== E92 A/B ($(date +%T))"
CASES="unpooler:1:$G.rows4.warps8.lp1,$G.rows4.warps8.lp2 unpooler:2:$G.rows4.warps8.lp1,$G.rows4.warps8.lp2"
CASES="$CASES qkv:1:$G.rows2.warps8.eq1.mb4.lp1,$G.rows2.warps8.eq1.mb4.lp2"
CASES="$CASES pooler:1:$G.rows2.warps8.eq1.mb4.lp1,$G.rows2.warps8.eq1.mb4.lp2"
CASES=$CASES PAIRS=200 TAG=e92 KEEP_JSON=1 timeout 120 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e92.txt"
RESULTS=1 LEFT_S=$((585 - SECONDS)) tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z9_from_e92.py Z9
echo "done ($SECONDS s)"
