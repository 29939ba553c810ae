#!/usr/bin/env bash
# Session 28, call 5: P29, an ablation of E90's lp1 (no plan change). lp1 changed two things at once:
# the addressing (pointers formed once, immediate offsets, predicated loads) and the bf16 widening
# (one bit operation per element). lp1.cv1 keeps the first and undoes the second. Dense/SplitkStream
# and `projkit check --method` of the two cv1 configs at M 1, then ab_configs.sh (300 pairs) at
# unpooler / qkv / pooler M 1: lp0, lp1, lp1.cv1 (and the pooler's lp0 rows2.warps8 without mb4).
# Usage: tools/experiments/call5_s28.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
G=gemv_stream
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/SplitkStream*' "unpooler:1..1:$G.rows4.warps8.lp1.cv1" \
  "qkv:1..1:$G.rows2.warps8.eq1.mb4.lp1.cv1" "pooler:1..1:$G.rows2.warps8.eq1.mb4.lp1.cv1"
echo "== P29 A/B ($(date +%T))"
U=$G.rows4.warps8; Q=$G.rows2.warps8.eq1.mb4
CASES="unpooler:1:$U.lp1,$U,$U.lp1.cv1 qkv:1:$Q.lp1,$Q,$Q.lp1.cv1 pooler:1:$Q.lp1,$G.rows2.warps8,$Q,$Q.lp1.cv1"
CASES=$CASES PAIRS=300 TAG=p29 timeout 150 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-p29.txt"
echo "done ($SECONDS s)"
