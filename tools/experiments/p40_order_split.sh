#!/usr/bin/env bash
# P40 (session 39; ran on an H100, results/h100/session39/c1-*, and an H200,
# results/h200/session39/c3-p40): why is the baseline timed slower in a bench process whose
# candidate holds a copy of W (P19, P30)? Hypothesis (H1): the candidate and the baseline of a pair
# read the same rotated copy of W, and the L2 flush between them clears the data but not what the
# first replay leaves behind in the address translations (or in L2 lines the flush misses), so
# whichever side runs second reads faster. A candidate that reads W in place lends that to the
# baseline in the pairs where it runs first; a candidate that reads its own copy never does, so
# its baseline is timed "cold" in every pair. H0: no order effect (placement or footprint).
#
# bench now writes each side's median by its place in the pair (case "order", session 39), so
# one process per config answers it. Per case, ab_configs.sh runs the configs in A B C C B A
# order (PAIRS pairs each, default 400); order_split_table.py prints the split.
#   W in place (H1: 2nd < 1st for both sides): kperm_splitk_zw, red5.rk1 (no slabs), splitk_mma_l2
#     (o has no copy), router_gemv_f32, and baseline (A/A: both sides are cuBLAS on one W)
#   W copied (H1: 2nd = 1st; baseline = the in-place processes' 1st): fragment_stream_zw (the
#     slice's packed rows), red5 wsl2.ls1 (k-block slabs), router_hilo_ring (hi / lo tiles)
# Rotated copies: pair i replays copy i % C, baseline first on even i, so with an even C (8, the
# default here) each copy is always replayed in one order and the split mixes order with copy.
# Tags p40a / p40b run with an odd C (--copies 9: 9 copies, 15 for router M 1; --copies 13: 13
# for router M 128), where every copy is replayed in both orders; tag p40c repeats the slice's
# in-place / packed pair under the default C = 8 (P19's and P30's setting).
# Usage: tools/experiments/p40_order_split.sh BIN OUT_DIR     (~2 min: 30 processes of ~4 s)
# Leaves OUT_DIR/p40.txt (the table) and OUT_DIR/p40.tar.xz (the JSONs, the A/B summaries).
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
HERE=$(cd "$(dirname "$0")" && pwd)
W=wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1
RING=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
SLICE=unpooler:8:kperm_splitk_zw.wr4.wk2.u8,fragment_stream_zw.kw16.wn4
export PAIRS=${PAIRS:-400} KEEP_JSON=1
CASES="$SLICE,baseline qkv:8:$W,$W.ki1.wsl2.ls1,baseline o:8:splitk_mma_l2.rows64.split1.lp1,baseline \
router:1:router_gemv_f32.rows1,baseline" TAG=p40a BENCH_ARGS="--copies 9" "$HERE/ab_configs.sh" "$BIN" "$O" >/dev/null
CASES="router:128:$RING,baseline" TAG=p40b BENCH_ARGS="--copies 13" "$HERE/ab_configs.sh" "$BIN" "$O" >/dev/null
CASES="$SLICE" TAG=p40c "$HERE/ab_configs.sh" "$BIN" "$O" >/dev/null
# The table: per tag and case, the processes in the order they ran (the name ends in the run index).
mapfile -t files < <(cd "$O" && ls b-p40?-*.json | sort -t- -k2,2 -k3,3 -k4,4n -k5,5n)
(cd "$O" && python3 "$HERE/order_split_table.py" "${files[@]}") | tee "$O/p40.txt"
(cd "$O" && tar cJf p40.tar.xz summary-p40?.txt b-p40?-*.json) && rm -f "$O"/b-p40?-*.json "$O"/summary-p40?.txt \
  "$O"/bench-p40?.tar.xz
