#!/usr/bin/env bash
# Session 40, call 2 (ran on an H100: results/h100/session40/c2-p41; E108's configs, named below,
# were removed after session 40's call 7, code in cd121d9): P41 (does a process's allocation history move its timings? bench --ballast,
# tools/experiments/p41_ballast.sh) and, on an H200, E108's A/B again (call 1 ran on an H100: the
# TMA-box x loader xl4 and its multicast pair xl5 against the plan's router_hilo_stream tiles; no
# rule: the code is measured for the record, not for a plan move).
# Usage: tools/experiments/call2_s40.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$O/device.txt"
echo "== P41 ($(date +%T))"
tools/experiments/p41_ballast.sh "$BIN" "$O" >/dev/null; cat "$O/p41.txt"
if grep -q H200 "$O/device.txt"; then
  echo "== E108 A/B on the H200 ($(date +%T))"
  CASES=$(cd tools/experiments && python3 plan_z17_from_e108.py --cases) PAIRS=200 TAG=e108 \
    timeout 200 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
  cat "$O/ab/summary-e108.txt"
fi
echo "done ($SECONDS s)"
