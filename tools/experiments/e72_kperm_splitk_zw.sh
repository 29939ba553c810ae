#!/usr/bin/env bash
# E72 (session 21): kperm_splitk_zw, kperm_stream_mma's K-permuted register stream with K split
# over a one-wave cooperative grid of two CTAs per SM and bf16x2 atomics into a y zeroed by a zero
# warp (router_hilo_stream's geometry for bf16 W), against the plan at the unpooler's row slice
# (M <= 8) and at a few pooler / qkv M.
# 1. GPU suite Dense/SplitkStream for the family (every config on the dense families where it
#    applies, M up to 16: fp64 reference, poisoned y, graph replay, two streams, NaN).
# 2. `projkit check --method CFG` over M 1..8 on the unpooler, M 1..16 on qkv / pooler (wr4) and
#    on o (wr8.wk1.u8, a 64-row tile for o's K = 1024).
# 3. Same-binary A/B (ab_configs.sh, 200 pairs), the plan's config first.
# 4. E73 in the same call: router_hilo_stream.kw8.wn2.zw1 (16 K splits, 128 blocks) against the
#    plan's kw4.wn2.zw1 (32 splits, 256 blocks) at router M 8 / 16 / 32: GPU suite
#    Router/RouterFamily for router_hilo_stream, check over M 1..256, A/B.
# Output files are packed into e72.tar.xz (the transfer returns at most 8 files).
# Usage: tools/experiments/e72_kperm_splitk_zw.sh BIN OUT_DIR   (~5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/e72"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/e72
Z=kperm_splitk_zw
A=$Z.wr4.wk2.u8 B=$Z.wr2.wk4.u8 C=$Z.wr1.wk8.u8 D=$Z.wr4.wk2.u4 E8=$Z.wr8.wk1.u8
K=kperm_stream_mma.rt1.wr1.wk8.u8 KP=kperm_stream_mma.rt1.wr1.wk8.u4 G=gemv_stream.rows4.warps8
WP=wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1
WQ=wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1
L2=splitk_mma_l2.rows64.split1
echo "== GPU suite, $Z ($(date +%T))"
timeout 150 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/SplitkStream.*/5' >"$E/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest.txt" | tr '\n' ' ')"
echo "== checks ($(date +%T))"
for v in $A $B $C $D $E8; do
  timeout 90 "$BIN/projkit" check --method "$v" --families unpooler --m 1..8 >"$E/check-unpooler-$v.txt" 2>&1
  echo "check unpooler $v rc=$? | $(tail -1 "$E/check-unpooler-$v.txt")"
done
for v in $A $D; do
  timeout 90 "$BIN/projkit" check --method "$v" --families qkv,pooler --m 1..16 >"$E/check-qkv-pooler-$v.txt" 2>&1
  echo "check qkv,pooler $v rc=$? | $(tail -1 "$E/check-qkv-pooler-$v.txt")"
done
timeout 90 "$BIN/projkit" check --method "$E8" --families o --m 1..16 >"$E/check-o-$E8.txt" 2>&1
echo "check o $E8 rc=$? | $(tail -1 "$E/check-o-$E8.txt")"
echo "== A/B ($(date +%T))"
CASES="unpooler:8:$K,$A,$B,$C,$D,$E8 unpooler:3:$K,$A,$B,$C,$D,$E8 unpooler:2:$G,$A,$B
pooler:2:$KP,$A,$D pooler:8:$WP,$A qkv:8:$WQ,$A o:1:$L2,$E8 o:8:$L2,$E8 o:16:$L2,$E8" TAG=e72 \
  timeout 420 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
echo "== E73: router_hilo_stream kw8.wn2.zw1 ($(date +%T))"
R4=router_hilo_stream.kw4.wn2.zw1 R8=router_hilo_stream.kw8.wn2.zw1
# (Call 2 ran this with the filter 'Router/RouterFamily.*/0', which matches no test: this suite's
# parameters are named, not numbered. call2_s21.sh's whole GPU suite ran the router tests: 77/77.)
timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter='Router/RouterFamily.*/router_hilo_stream' >"$E/gtest-router.txt" 2>&1
echo "gtest router rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest-router.txt" | tr '\n' ' ')"
timeout 120 "$BIN/projkit" check --method "$R8" --families router --m 1..256 >"$E/check-router-$R8.txt" 2>&1
echo "check router $R8 rc=$? | $(tail -1 "$E/check-router-$R8.txt")"
CASES="router:8:$R4,$R8 router:16:$R4,$R8 router:32:$R4,$R8" TAG=e73 \
  timeout 200 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
tar cJf "$O/e72.tar.xz" -C "$O" e72
echo "== summary ($(date +%T))"
cat "$E/summary-e72.txt" "$E/summary-e73.txt"
