#!/usr/bin/env bash
# Session 26, call 4: the results of plan Z5b (plans/h200.json: plan Z5 of call 3, E87's wmc1 ranges,
# with the bm64 wmc1 ranges' low edges moved up by plan_z5b_from_sweeps.py). The binary is call 3's
# (its GPU suite 77/77 and memcheck 74/74, 0 errors, ran there with plan Z5): here the GPU suite
# without memcheck, then tools/device_results.sh's floor, bench (400 pairs), A/A, check 1..256,
# baseline fidelity, the Python binding and the 1..256 sweep (300 pairs).
# Usage: tools/experiments/call4_s26.sh BIN OUT_DIR   (~5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== gpu tests ($(date +%T))"
timeout 120 "$BIN/projkit_gpu_tests" >"$O/gpu-tests.txt" 2>&1; echo "gpu tests rc=$?"; tail -1 "$O/gpu-tests.txt"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 480 tools/device_results.sh "$BIN" "$O/res" \
  "floor bench aa check fidelity pytest sweep" >"$O/results.txt" 2>&1; echo "results rc=$?"
tail -45 "$O/results.txt"
