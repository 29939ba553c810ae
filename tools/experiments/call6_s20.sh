#!/usr/bin/env bash
# Session 20, call 6: the full results of plans/h200.json (plan V, or X if call 5 moved it):
# tools/device_results.sh with the GPU tests (+ memcheck), floor, the default bench (400 pairs),
# A/A, the 1..256 sweep (300 pairs), check, fidelity, pytest and the sweep's atlas; packed into
# OUT_DIR/res.tar.xz (the transfer returns at most 8 files).
# STEPS overrides device_results.sh's steps (call56_s20.sh leaves out the sweep and its atlas when
# device time is short: ~3 min less).
# Usage: [STEPS=".."] tools/experiments/call6_s20.sh BIN OUT_DIR   (~5 min; ~2 without the sweep)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== results (tools/device_results.sh) ($(date +%T))"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 560 tools/device_results.sh "$BIN" "$O/res" \
  "${STEPS:-bench tests floor aa check sweep fidelity pytest report}" >"$O/results.txt" 2>&1; echo "rc=$?"
tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
tail -40 "$O/results.txt"
