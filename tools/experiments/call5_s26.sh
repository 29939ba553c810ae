#!/usr/bin/env bash
# Session 26, call 5: E88, qkv's wmc1 pairs in K-split-major block order (ki1.ko1.wmc1, split 3),
# an A/B only: the session's device time left (411 s) holds no plan A/B with results, so a gain is
# for a later session to ship.
# 1. correctness: the Dense/WgmmaTmaRed5 GPU suite (every red5 config, the two ko1.wmc1 ones
#    included) and `projkit check` of both over qkv's ranges;
# 2. the A/B (ab_configs.sh, 200 pairs, plan Z5b's method first): qkv M 96 / 128 against
#    bm64.split3.ki1.wmc1, M 224 / 256 against bm256.split7.ki1.ko1 (and bm128.split3.ki1.wmc1).
# Usage: tools/experiments/call5_s26.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
c() { echo "$W.bm$1.split$2.mc1.stages$3.xfit1.red5.rk1$4"; }
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/WgmmaTmaRed5*' \
  "qkv:65..128:$(c 64 3 8 .ki1.ko1.wmc1)" "qkv:129..256:$(c 128 3 6 .ki1.ko1.wmc1)"
echo "== E88 A/B ($(date +%T))"
CASES=""
for m in 96 128; do CASES="$CASES qkv:$m:$(c 64 3 8 .ki1.wmc1),$(c 64 3 8 .ki1.ko1.wmc1)"; done
for m in 224 256; do CASES="$CASES qkv:$m:$(c 256 7 4 .ki1.ko1),$(c 128 3 6 .ki1.wmc1),$(c 128 3 6 .ki1.ko1.wmc1)"; done
CASES=$CASES PAIRS=200 TAG=e88 timeout 150 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e88.txt"
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
echo "done ($SECONDS s)"
