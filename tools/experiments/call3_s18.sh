#!/usr/bin/env bash
# Session 18, call 3: E65, W read from its k-block slabs (wsl1: a copy [K/64][N][64] packed at
# prepare; L7 showed a grid that reads one window of memory at a time streaming 5-9 % faster).
# (1) The red5 GPU suite (every listed red5 config, the wsl1 ones included) and `projkit check` of
#     the wsl1 configs over their plan ranges; (2) same-binary A/B (200 pairs, base v.. v.. base)
#     of each plan case's config against its wsl1 / ki1.wsl1 twins; (3) pooler M 72 / 96: plan S3's
#     bm192.split4.ki1 against bm128.split4.ki1 (call 2: +4.2 % at M 128).
# Usage: tools/experiments/call3_s18.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
P128=$P.bm128.split4.mc1.stages6.xfit1.red5.rk1
red5_suite "$BIN" "$O"
red5_checks "$BIN" "$O" ".wsl1" "pooler 6..32 $W64" "unpooler 17..64 $W64"
red5_checks "$BIN" "$O" ".wsl1 .ki1.wsl1" "qkv 2..64 $Q64" "pooler 33..64 $P64" "qkv 65..128 $Q128" \
  "pooler 65..128 $P128" "unpooler 65..128 $U128" "pooler 129..256 $P256" "unpooler 129..256 $U256" "qkv 193..256 $Q256"
echo "== A/B ($(date +%T))"
CASES="pooler:8:$W64,$W64.wsl1,$P64,$P64.wsl1,$P64.ki1.wsl1 pooler:32:$W64,$W64.wsl1,$P64.ki1.wsl1
qkv:8:$Q64,$Q64.wsl1,$Q64.ki1.wsl1 qkv:128:$Q128,$Q128.wsl1,$Q128.ki1.wsl1
qkv:256:$Q256.ki1.ko1,$Q256.wsl1,$Q256.ki1.wsl1 pooler:128:$P128.ki1,$P128.wsl1,$P128.ki1.wsl1
pooler:256:$P256.ki1,$P256.wsl1,$P256.ki1.wsl1 unpooler:32:$W64,$W64.wsl1,$U64.ki1.wsl1
unpooler:128:$U128.ki1,$U128.wsl1,$U128.ki1.wsl1 unpooler:256:$U256.ki1,$U256.wsl1,$U256.ki1.wsl1
pooler:72:$P192.ki1,$P128.ki1 pooler:96:$P192.ki1,$P128.ki1" PAIRS=200 TAG=e65 \
  tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
tar cJf "$O/logs.tar.xz" -C "$O" $(cd "$O" && ls -d check-*.txt gtest.txt) && rm -f "$O"/check-*.txt "$O"/gtest.txt
echo "== summary ($(date +%T))"
cat "$O/summary-e65.txt"
