#!/usr/bin/env bash
# Session 32, call 6: P32 continued. Call 5 found the flush alone costs no code fetch for up to
# 64 KB of code; here tools/dev/code_fetch.cu also times each kernel's start (its CTAs' entry after
# the preceding kernel's end) and adds an evictor (256 KB of code run in between) with and without
# the flush: SM instruction caches hit / L2 / DRAM. Twice, to see the spread between runs.
# Information only.
# Usage: tools/experiments/call6_s32.sh BIN OUT_DIR   (~30 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for run in 1 2; do
  echo "== code_fetch run $run ($(date +%T))"
  "$BIN/projkit_dev_code_fetch" --reps 40 2>&1 | tee "$O/code_fetch-$run.txt"
  echo "rc=${PIPESTATUS[0]}"
done
