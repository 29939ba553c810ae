#!/usr/bin/env bash
# Session 17, call 9: the compile-time k-block order (wgmma_tma_red5_kernel<BM, KORD>, ki1 and
# ki1.ko1 at bm 128..256; plan R's kernels have run R's .text). (1) The red5 GPU suite (every
# listed red5 config, the six new kernels included) and `projkit check` of plan S2's ki1 / ki1.ko1
# ranges; (2) same-binary A/B of those configs against their rk1 base (200 pairs, base v v base);
# (3) plan A/B, plan R against plan S2 (results/h200/session17/plan-s2.json), two rounds. For the
# next session's decision; nothing ships from this call.
# Usage: tools/experiments/call9_s17.sh BIN OUT_DIR   (~1.5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
red5_suite "$BIN" "$O"
red5_checks "$BIN" "$O" ".ki1" "pooler 65..192 $P192" "pooler 193..256 $P256" "unpooler 65..128 $U128" \
  "unpooler 224..256 $U256"
red5_checks "$BIN" "$O" ".ki1.ko1" "qkv 129..192 $Q192" "qkv 193..256 $Q256"
echo "== A/B ($(date +%T))"
CASES="pooler:128:$P192,$P192.ki1 pooler:256:$P256,$P256.ki1 qkv:192:$Q192,$Q192.ki1.ko1 qkv:256:$Q256,$Q256.ki1.ko1
unpooler:128:$U128,$U128.ki1 unpooler:256:$U256,$U256.ki1" PAIRS=200 TAG=e63c tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
for round in 1 2; do
  echo "== plan A/B round $round, R (O) against S2 (Q) ($(date +%T))"
  tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" results/h200/session17/plan-r.json results/h200/session17/plan-s2.json >/dev/null
  cat "$O/ab$round/ab-summary.txt"
done
tar cJf "$O/logs.tar.xz" -C "$O" $(cd "$O" && ls -d check-*.txt gtest.txt ab1 ab2) && rm -rf "$O"/check-*.txt "$O"/gtest.txt "$O"/ab1 "$O"/ab2
echo "== summary ($(date +%T))"
cat "$O/summary-e63c.txt"
