#!/usr/bin/env bash
# E69 (session 20): gemv_stream.rows2.warps8 with its registers capped for 4 blocks per SM (mb4,
# 64 registers at M = 1 instead of 68: a third more weight loads in flight per SM), alone and with
# E67's equal rounds (eq1), at M = 1 on qkv and pooler.
# 1. GPU suite Dense/SplitkStream for gemv_stream (every config, four dense families, M 1..8).
# 2. `projkit check --method CFG` over M 1..8 on qkv, pooler, unpooler for each new config.
# 3. Same-binary A/B, 200 pairs, against the plan's rows2.warps8.
# Output files are packed into e69.tar.xz (the transfer returns at most 8 files).
# Usage: tools/experiments/e69_gemv_residency.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/e69"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/e69
G=gemv_stream.rows2.warps8
echo "== GPU suite, gemv_stream ($(date +%T))"
timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/SplitkStream.*/4' >"$E/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest.txt" | tr '\n' ' ')"
echo "== checks ($(date +%T))"
for v in $G.mb4 $G.eq1.mb4; do
  timeout 90 "$BIN/projkit" check --method "$v" --families qkv,pooler,unpooler --m 1..8 >"$E/check-$v.txt" 2>&1
  echo "check $v rc=$? | $(tail -1 "$E/check-$v.txt")"
done
echo "== A/B ($(date +%T))"
CASES="qkv:1:$G,$G.eq1,$G.mb4,$G.eq1.mb4 pooler:1:$G,$G.eq1,$G.mb4,$G.eq1.mb4" TAG=e69 \
  timeout 200 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
tar cJf "$O/e69.tar.xz" -C "$O" e69
echo "== summary ($(date +%T))"
cat "$E/summary-e69.txt"
