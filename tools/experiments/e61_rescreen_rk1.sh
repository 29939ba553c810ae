#!/usr/bin/env bash
# Ledger E61 (session 16): with red5 on its own entry point (rk1, E59), do other listed configs
# now beat plan R's at the scored loads? Same binary, listed configs only, 200 pairs per run,
# order A B .. B A (the first config of each case is plan R's). No check: every config named is
# covered by the Dense GPU suites and by run R's / E59's checks.
# Call 8 ran it with the loop and summary inline (commit bb0c7c4); the same
# steps now live in ab_configs.sh (summary-e61.txt, bench-e61.tar.xz).
# Usage: tools/experiments/e61_rescreen_rk1.sh BIN OUT_DIR   (~1.5 min)
set -u
BIN=${1:?}; O=${2:?}
W=wgmma_tma.bn128
Q64=$W.bm64.split4.mc1.stages8.xfit1.red5.rk1; Q64s7=$W.bm64.split7.mc1.stages8.xfit1.red5.rk1
Q128=$W.bm128.split4.mc1.stages6.xfit1.red5.rk1; Q128s7=$W.bm128.split7.mc1.stages6.xfit1.red5.rk1
P192=$W.bm192.split4.mc1.stages5.xfit1.red5.rk1; P128=$W.bm128.split4.mc1.stages6.xfit1.red5.rk1
U64wt=$W.bm64.split2.mc1.stages8.xfit1.red5.wt1; U64rk=$W.bm64.split2.mc1.stages8.xfit1.red5.rk1
CASES=${CASES:-"qkv:8:$Q64,$Q64s7 qkv:32:$Q64,$Q64s7 qkv:128:$Q128,$Q128s7 pooler:128:$P192,$P128 unpooler:16:splitk_mma_cluster.warps4.split2,$U64wt,$U64rk"}
CASES=$CASES TAG=e61 exec "$(dirname "$0")/ab_configs.sh" "$BIN" "$O"
