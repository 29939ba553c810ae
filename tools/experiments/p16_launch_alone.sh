#!/usr/bin/env bash
# Ledger P16 (session 16): is E59's gain (red5's own entry point, rk1) in the launch or in the
# work? A PROJKIT_WGMMA_STAMPS build with $PROJKIT_WGMMA_PROBE_SKIP=16 makes every CTA return at
# entry, so bench times the launch alone (cooperative, ~200 KB smem, 384 threads) beyond the
# empty-kernel replay overhead; mode 0 times the whole call in the same build. Per case the
# wgmma_tma_kernel config and its rk1 twin (and pooler M 32's wt1), 100 pairs, A B .. B A.
# Call 9 ran it with the loop and summary inline (commit 4a7879f); the same steps now live in
# ab_configs.sh (summary-mode16.txt / summary-mode0.txt: mode 16 = the launch alone).
# Usage: tools/experiments/p16_launch_alone.sh STAMPS_BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}
W=wgmma_tma.bn128
Q64=$W.bm64.split4.mc1.stages8.xfit1.red5; P192=$W.bm192.split4.mc1.stages5.xfit1.red5; P64=$W.bm64.split2.mc1.stages8.xfit1.red5
CASES="qkv:64:$Q64,$Q64.rk1 pooler:128:$P192,$P192.rk1 pooler:32:$P64,$P64.rk1,$P64.wt1"
for mode in 16 0; do
  CASES=$CASES PAIRS=100 TAG=mode$mode BENCH_ENV=PROJKIT_WGMMA_PROBE_SKIP=$mode "$(dirname "$0")/ab_configs.sh" "$BIN" "$O" >/dev/null
done
cat "$O/summary-mode16.txt" "$O/summary-mode0.txt" | tee "$O/summary.txt"
