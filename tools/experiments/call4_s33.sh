#!/usr/bin/env bash
# Session 33, call 4: the whole GPU suite on the final tree (after the review mend: the RouterLayouts
# memory tests share one helper; kernels byte-identical to call 2's).
# Usage: tools/experiments/call4_s33.sh BIN OUT_DIR   (~40 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 240 "$BIN/projkit_gpu_tests" >"$O/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | tr '\n' ' ')"
grep -E "RouterLayouts|FAILED" "$O/gtest.txt" | head -20
echo "done ($SECONDS s)"
