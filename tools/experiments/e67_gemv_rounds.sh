#!/usr/bin/env bash
# E67 (session 20): gemv_stream with equal rounds (eq1: every block the same number of row groups)
# and with the next row group's loads in flight across the reduction (pf1), at M = 1 where the plan
# runs gemv_stream.rows2.warps8 on qkv and pooler (1.10x / 1.07x their floor in run T2).
# 1. GPU suite Dense/SplitkStream for gemv_stream (every config, four dense families, M 1..8:
#    fp64 reference, poisoned y, graph replay, NaN then clean call, two streams).
# 2. `projkit check --method CFG` over M 1..8 on qkv, pooler, unpooler for each new config.
# 3. Same-binary A/B, 200 pairs (ab_configs.sh: CFG1 .. CFGn CFGn .. CFG1): qkv and pooler at M 1
#    and 2 against the plan's configs.
# Prints a short table last; the full logs stay under OUT_DIR.
# Usage: tools/experiments/e67_gemv_rounds.sh BIN OUT_DIR   (~5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
G=gemv_stream.rows2.warps8
NEW="$G.eq1 $G.pf1 $G.eq1.pf1 gemv_stream.rows4.warps8.eq1"
echo "== GPU suite, gemv_stream ($(date +%T))"
timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/SplitkStream.*/4' >"$O/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | tr '\n' ' ')"
echo "== checks ($(date +%T))"
for v in $NEW; do
  timeout 90 "$BIN/projkit" check --method "$v" --families qkv,pooler,unpooler --m 1..8 >"$O/check-$v.txt" 2>&1
  echo "check $v rc=$? | $(tail -1 "$O/check-$v.txt")"
done
echo "== A/B ($(date +%T))"
K2=kperm_stream_mma.rt1.wr1.wk8.u4
W2=wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1
CASES="qkv:1:$G,$G.eq1,$G.pf1,$G.eq1.pf1,gemv_stream.rows4.warps8.eq1 \
pooler:1:$G,$G.eq1,$G.pf1,$G.eq1.pf1,gemv_stream.rows4.warps8.eq1 \
qkv:2:$W2,$G,$G.eq1.pf1 pooler:2:$K2,$G,$G.eq1.pf1" TAG=e67 \
  timeout 300 tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
echo "== summary ($(date +%T))"
cat "$O/summary-e67.txt"
