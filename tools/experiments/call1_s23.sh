#!/usr/bin/env bash
# Session 23, call 1: P22, ncu's full section set on the M 128 / 256 gap cases, cuBLAS's unpooler /
# o kernels and o's 16- / 32-token tiles with one and two warps per slab
# (tools/experiments/p22_full_counters.cases under p1_ncu_gaps.sh with NCU_SET=full RAW=1). A
# diagnostic: no plan rule. The table printed last comes from tools/experiments/p22_summary.py.
# Usage: tools/experiments/call1_s23.sh BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/p22"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >"$O/nvidia-smi.txt" 2>&1
CASES_FILE=tools/experiments/p22_full_counters.cases NCU_SET=full RAW=1 \
  timeout 480 tools/experiments/p1_ncu_gaps.sh "$BIN" "$O/p22" >"$O/p22-details-table.txt" 2>&1
rm -f "$O"/p22/*.ncu-rep  # the raw pages keep every collected metric
python3 tools/experiments/p22_summary.py "$O/p22" | tee "$O/p22-table.txt"
tar cJf "$O/p22.tar.xz" -C "$O" p22 && rm -rf "$O/p22"
tail -n 20 "$O/p22-details-table.txt"
cat "$O/p22-table.txt" | head -20
