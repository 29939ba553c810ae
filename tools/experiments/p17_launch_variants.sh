#!/usr/bin/env bash
# Ledger P17 (session 16): P16 found that a wgmma_tma grid whose CTAs return at entry costs
# 1.3-1.55 us beyond the empty kernel the bench subtracts. Which part of the launch? A
# PROJKIT_WGMMA_STAMPS build with PROJKIT_WGMMA_PROBE_SKIP=16 (return at entry) and
# PROJKIT_WGMMA_PROBE_LAUNCH bits (wgmma_tma.cu run(); honoured only with skip bit 16): 1 no
# cooperative attribute, 2 no dynamic smem, 4 128 threads instead of 384; 7 all three. Plan R's
# rk1 configs at pooler M 128 and qkv M 64, 100 pairs, two runs per variant (ab_configs.sh).
# Usage: tools/experiments/p17_launch_variants.sh STAMPS_BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}
W=wgmma_tma.bn128
CASES="pooler:128:$W.bm192.split4.mc1.stages5.xfit1.red5.rk1 qkv:64:$W.bm64.split4.mc1.stages8.xfit1.red5.rk1"
for t in 0 1 2 4 7 0b; do  # 0b: bits 0 again, last (drift)
  CASES=$CASES PAIRS=100 TAG=launch$t BENCH_ENV="PROJKIT_WGMMA_PROBE_SKIP=16 PROJKIT_WGMMA_PROBE_LAUNCH=${t%b}" \
    "$(dirname "$0")/ab_configs.sh" "$BIN" "$O" >/dev/null
done
for t in 0 1 2 4 7 0b; do sed 1d "$O/summary-launch$t.txt" | sed "s/^/launch bits $t: /"; done | tee "$O/summary.txt"
