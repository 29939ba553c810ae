#!/usr/bin/env bash
# Session 18, call 5 (after run T): (1) the floor with L7's interleaved TMA streams as floor
# variants (`projkit floor`), and the default-workload bench on plan T against that floor (400
# pairs) for the table of gaps; (2) same-binary A/B (200 pairs) of the unpooler's M 9..16 range
# (splitk_mma_cluster in plan T) against the bm64 k-slab configs, and wt1.wsl1 (fixed after call 3)
# against rk1.ki1.wsl1 at pooler M 16; (3) the GPU test of one slab copy per Projection (new).
# Nothing ships from this call.
# Usage: tools/experiments/call5_s18.sh BIN OUT_DIR   (~2.5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
echo "== gpu test: one slab copy per Projection ($(date +%T))"
timeout 120 "$BIN/projkit_gpu_tests" --gtest_filter='CublasLtPlan.*Share*' >"$O/gtest-kslab.txt" 2>&1; echo "rc=$?"
grep -E "^\[  (PASSED|FAILED) " "$O/gtest-kslab.txt"
echo "== floor ($(date +%T))"
timeout 120 "$BIN/projkit" floor --json "$O/floor.json" >"$O/floor.txt" 2>&1; echo "rc=$?"
echo "== bench ($(date +%T))"
timeout 200 "$BIN/projkit" bench --pairs 400 --json "$O/bench-default.json" >"$O/bench.txt" 2>&1; echo "rc=$?"
echo "== check ($(date +%T))"
red5_checks "$BIN" "$O" ".wsl1" "pooler 6..32 $W64" "unpooler 1..64 $W64"
red5_checks "$BIN" "$O" ".ki1.wsl1" "unpooler 9..16 $U64"
echo "== A/B ($(date +%T))"
CL=splitk_mma_cluster.warps4.split2
CASES="unpooler:9:$CL,$U64.ki1.wsl1 unpooler:12:$CL,$U64.ki1.wsl1,$W64.wsl1 unpooler:16:$CL,$U64.ki1.wsl1,$W64.wsl1
pooler:16:$P64.ki1.wsl1,$W64.wsl1" PAIRS=200 TAG=c5 tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
tar cJf "$O/logs.tar.xz" -C "$O" $(cd "$O" && ls check-*.txt gtest-kslab.txt) && rm -f "$O"/check-*.txt "$O/gtest-kslab.txt"
echo "== summary ($(date +%T))"
tail -4 "$O/bench.txt"
grep -E "^ +[0-9]+ " "$O/floor.txt" | head -30
cat "$O/summary-c5.txt"
