#!/usr/bin/env bash
# Session 30, call 1: E95, fragment_stream_zw (router_hilo_stream's register stream for bf16 W over a
# packed copy of the unpooler slice's 1024 rows; zero warp, bf16x2 adds) against the plan's slice
# methods (gemv_stream.rows4.warps8.lp1 at M 1..2, kperm_splitk_zw.wr4.wk2.u8 at M 3..8).
# 1. GPU tests Dense/SplitkStream.*/6 (fragment_stream_zw: fp64 reference at every applicable M,
#    graph replay, two streams, NaN then clean) and `projkit check --method` of each tile over
#    unpooler M 1..8.
# 2. Same-binary A/B (ab_configs.sh, 300 pairs, the plan's method first) at unpooler M 1..8.
# Usage: tools/experiments/call1_s30.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
F=fragment_stream_zw
T="$F.kw16.wn2 $F.kw8.wn2 $F.kw8.wn1 $F.kw16.wn4"
args=(); for t in $T; do args+=("unpooler:1..8:$t"); done
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/SplitkStream.*/6' "${args[@]}"
grep -E "^\[  FAILED  \]" "$O/ab/gtest.txt" | head -8
echo "== E95 A/B ($(date +%T))"
CASES=""
for m in 1 2 3 4 5 6 7 8; do
  inc=kperm_splitk_zw.wr4.wk2.u8; [ $m -le 2 ] && inc=gemv_stream.rows4.warps8.lp1
  CASES="$CASES unpooler:$m:$inc,$(echo $T | tr ' ' ',')"
done
CASES=$CASES PAIRS=300 TAG=e95 timeout 400 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e95.txt"
echo "done ($SECONDS s)"
