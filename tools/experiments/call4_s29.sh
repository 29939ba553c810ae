#!/usr/bin/env bash
# Session 29, call 4: the final tree (E93's xl2 / xl3 and E94 removed, the review mend; every kept
# kernel's .text byte-identical to calls 1-2's build): the whole GPU suite, and `projkit check` of
# the shipped plan Z8b over router and o M 1..64 (the families whose methods it changed).
# Usage: tools/experiments/call4_s29.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== GPU suite ($(date +%T))"
timeout 200 "$BIN/projkit_gpu_tests" >"$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gpu-tests.txt" | tr '\n' ' ')"
grep -E "^\[  FAILED  \]" "$O/gpu-tests.txt" | head -8
timeout 120 "$BIN/projkit" check --families router,o --m 1..64 >"$O/check.txt" 2>&1
echo "check router,o 1..64 rc=$? | $(tail -1 "$O/check.txt")"
echo "done ($SECONDS s)"
