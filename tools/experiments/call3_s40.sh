#!/usr/bin/env bash
# Session 40's calls 4 and 7 (an H100: results/h100/session40/c4-p41b; an H200:
# results/h200/session40/c7-p41b-p41-e108; E108's configs, named below, were removed after call 7,
# code in cd121d9): P41b (tools/experiments/p41_ballast.sh SET p41b: the candidate on its own copy
# of W, in-place kernel and A/A) and, on an H200, P41 itself and E108's A/B (calls 1-2 ran on H100s).
# Usage: tools/experiments/call3_s40.sh BIN OUT_DIR   (~20 s on an H100, ~1 min on an H200)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$O/device.txt"
echo "== P41b ($(date +%T))"
tools/experiments/p41_ballast.sh "$BIN" "$O" p41b >/dev/null; cat "$O/p41b.txt"
if grep -q H200 "$O/device.txt"; then
  echo "== P41 on the H200 ($(date +%T))"
  tools/experiments/p41_ballast.sh "$BIN" "$O" p41 >/dev/null; cat "$O/p41.txt"
  echo "== E108 A/B on the H200 ($(date +%T))"
  CASES=$(cd tools/experiments && python3 plan_z17_from_e108.py --cases) PAIRS=200 TAG=e108 \
    timeout 200 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
  cat "$O/ab/summary-e108.txt"
fi
echo "done ($SECONDS s)"
