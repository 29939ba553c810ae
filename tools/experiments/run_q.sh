#!/usr/bin/env bash
# Run Q (session 15): E58e, wgmma_tma bm64.split2.red5.wt1 (the work table in K-split-major order,
# as shipped: kernels/splitk_work_table) against bm64.split2.red5 in one binary at pooler M 8 / 16
# / 32 and unpooler M 32 / 64, with its checks; then the full results on plan Q (pooler M 6..32
# and unpooler M 17..64 on wt1; every other range is run O's).
# Usage: tools/experiments/run_q.sh BIN OUT_DIR   (~6 min; BIN also holds libprojkit.so for pytest)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== E58e ($(date +%T))"
VARS=wt1 CASES="pooler:8:P64 pooler:16:P64 pooler:32:P64 unpooler:32:P64 unpooler:64:P64" \
  CHECKS="pooler:1..64:P64.wt1 unpooler:1..64:P64.wt1" \
  tools/experiments/e58_sm_work_table.sh "$BIN" "$O/e58e" >"$O/e58e.txt" 2>&1
cat "$O/e58e/summary.txt"; grep -E "rc=[1-9]|PASSED|FAILED|check:" "$O/e58e.txt"
echo "== results (tools/device_results.sh) ($(date +%T))"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 450 tools/device_results.sh "$BIN" "$O/res" \
  "tests floor bench aa sweep check fidelity pytest report" >"$O/results.txt" 2>&1; echo "rc=$?"
tail -25 "$O/results.txt"
