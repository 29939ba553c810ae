#!/usr/bin/env bash
# E63 (session 17): wgmma_tma red5 with the K splits of a tile interleaved (config keys ki1:
# split ks takes k-blocks ks, ks + split, ..; ki2: the same in pairs of k-blocks) against
# the plan's rk1 / wt1 configs, same binary (E62's rotation spread the CTAs over more K windows
# and lost 1-6 %; this is the opposite).
# Steps: the red5 GPU suite (every ki variant at every resident M, three launches per M),
# `projkit check` of the ki variants over the plan ranges, then ab_configs.sh.
# Usage: tools/experiments/e63_ksplit_interleave.sh BIN OUT_DIR   (~5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
red5_suite "$BIN" "$O"
red5_checks "$BIN" "$O" ".ki1 .ki2" "qkv 1..64 $Q64" "qkv 65..128 $Q128" "qkv 193..256 $Q256" "pooler 6..32 $W64" \
  "pooler 77..192 $P192" "pooler 193..256 $P256" "unpooler 17..64 $W64" "unpooler 65..128 $U128" "unpooler 224..256 $U256"
echo "== A/B ($(date +%T))"
CASES="qkv:8:$Q64,$Q64.ki1,$Q64.ki2 qkv:32:$Q64,$Q64.ki1,$Q64.ki2 qkv:128:$Q128,$Q128.ki1,$Q128.ki2
qkv:256:$Q256,$Q256.ki1,$Q256.ki2 pooler:8:$W64,$W64.ki1,$W64.ki2 pooler:32:$W64,$W64.ki1,$W64.ki2
pooler:128:$P192,$P192.ki1,$P192.ki2 pooler:256:$P256,$P256.ki1,$P256.ki2 unpooler:32:$W64,$W64.ki1,$W64.ki2
unpooler:128:$U128,$U128.ki1,$U128.ki2 unpooler:256:$U256,$U256.ki1,$U256.ki2" \
  PAIRS=200 TAG=e63 tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
tar cJf "$O/checks.tar.xz" -C "$O" $(cd "$O" && ls check-*.txt) && rm -f "$O"/check-*.txt
echo "== summary ($(date +%T))"
cat "$O/summary-e63.txt"
