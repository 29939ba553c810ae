#!/usr/bin/env bash
# Session 17, call 7 (after run S2): E64b, the ki1 + ko1 pair (qkv M 129..256's gain in E63 / E64)
# on the shapes where each alone lost or was not measured: qkv bm128.split4 (M 65..128) and
# bm64.split4 (M 2..64), the 126-CTA split7 grids at those M, pooler bm64.split2 (M 33..64) with
# ki1, unpooler bm192.split2 (M 118..192). Same binary, 200 pairs, A B C C B A against plan S2's
# config, through ab_configs.sh. Nothing here ships this session (no device time is left for a
# results run); it is for the next plan.
# Usage: tools/experiments/call7_s17.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
. tools/experiments/red5_ab_lib.sh
Q64s7=$P.bm64.split7.mc1.stages8.xfit1.red5.rk1.ki1.ko1
Q128s7=$P.bm128.split7.mc1.stages6.xfit1.red5.rk1.ki1.ko1
CASES="qkv:32:$Q64,$Q64.ki1.ko1,$Q64s7 qkv:64:$Q64,$Q64.ki1.ko1,$Q64s7 qkv:96:$Q128,$Q128.ki1.ko1,$Q128s7
qkv:128:$Q128,$Q128.ki1.ko1,$Q128s7 pooler:48:$P64,$P64.ki1,$P64.ki1.ko1 pooler:64:$P64,$P64.ki1,$P64.ki1.ko1
unpooler:160:$U192,$U192.ki1.ko1 unpooler:192:$U192,$U192.ki1.ko1" \
  PAIRS=200 TAG=e64b tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
cat "$O/summary-e64b.txt"
