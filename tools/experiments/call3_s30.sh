#!/usr/bin/env bash
# Session 30, call 3: the results of plan Z9 (plan Z8b with the unpooler slice's M 3..8 on
# fragment_stream_zw.kw16.wn4, E95; shipped by call 2's plan A/B verdict): tools/device_results.sh
# (bench 400 pairs, check, A/A, fidelity, pytest, floor, GPU tests + memcheck, the 1..256 sweep at
# 300 pairs).
# Usage: tools/experiments/call3_s30.sh BIN OUT_DIR   (~5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== results of plan Z9 ($(date +%T))"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 560 tools/device_results.sh "$BIN" "$O/res" \
  "bench check aa fidelity pytest floor tests sweep" >"$O/results.txt" 2>&1; echo "results rc=$?"
tail -45 "$O/results.txt"
echo "done ($SECONDS s)"
