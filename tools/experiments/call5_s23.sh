#!/usr/bin/env bash
# Session 23, call 5: P23, P13's skip probe (tools/experiments/p13_skip_probe.sh) on plan Z's
# M 128 / 256 configs (rk1 with ki1; qkv M 256 ko1, qkv M 128 wsl1), which P13 (session 16)
# measured before the rk1 entry and the k-block orders existed. A PROJKIT_WGMMA_STAMPS build leaves
# out the x loads (mode 1), the W loads (2), both (3), the red5 adds (8) and combinations; one bench
# process per mode and case, 100 pairs; the production binary on the same cases last. P22 read
# the M 256 main loop as L2->SM-bound; the "no x" column bounds what halving x's L2 reads (a 2-CTA
# multicast) could save. A diagnostic: no plan rule. The answers are wrong in every mode but 0.
# Usage: tools/experiments/call5_s23.sh BIN STAMPS_BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}
W=wgmma_tma.bn128
SKIP_TESTS=1 MODES="0 1 2 3 8 9 10 0" \
CASES="pooler:256:$W.bm256.split4.mc1.stages4.xfit1.red5.rk1.ki1 qkv:256:$W.bm256.split7.mc1.stages4.xfit1.red5.rk1.ki1.ko1
unpooler:256:$W.bm256.split2.mc1.stages4.xfit1.red5.rk1.ki1 pooler:128:$W.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1
qkv:128:$W.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1 unpooler:128:$W.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1" \
  timeout 400 tools/experiments/p13_skip_probe.sh "$BIN" "$SBIN" "$O/p23" 2>&1 | tail -30
