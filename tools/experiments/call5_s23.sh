#!/usr/bin/env bash
# Session 23, call 5 (only if call 4 shipped plan Z2, now plans/h200.json): the shipped plan's
# results, the commands plan_ab_ship.sh runs after a ship (tools/device_results.sh: bench 400
# pairs, check, A/A, fidelity, pytest, floor, GPU tests + memcheck, the 1..256 sweep at 300 pairs).
# Usage: tools/experiments/call5_s23.sh BIN OUT_DIR   (~4-5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 560 tools/device_results.sh "$BIN" "$O/res" \
  "bench check aa fidelity pytest floor tests sweep" >"$O/results.txt" 2>&1; echo "results rc=$?"
tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
tail -45 "$O/results.txt"
