#!/usr/bin/env bash
# P32's step of session 32's calls 5-7 (call5_s32.sh .. call7_s32.sh): tools/dev/code_fetch.cu run
# twice (to see the spread between runs), each into OUT_DIR/code_fetch-RUN.txt. Run from the
# repository root.
# Usage: tools/experiments/code_fetch_runs.sh BIN OUT_DIR
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for run in 1 2; do
  echo "== code_fetch run $run ($(date +%T))"
  "$BIN/projkit_dev_code_fetch" --reps 40 2>&1 | tee "$O/code_fetch-$run.txt"
  echo "rc=${PIPESTATUS[0]}"
done
