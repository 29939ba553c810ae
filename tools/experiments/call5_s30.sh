#!/usr/bin/env bash
# Session 30, call 5: the final tree (fragment_stream_zw's two slower tiles removed after call 4; the
# remaining kernels' .text byte-identical): the whole GPU suite, pytest, and `projkit check` of plan
# Z9 over the unpooler at M 1..16.
# Usage: tools/experiments/call5_s30.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== GPU tests ($(date +%T))"
timeout 200 "$BIN/projkit_gpu_tests" >"$O/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | tr '\n' ' ')"
grep -E "^\[  FAILED  \]" "$O/gtest.txt" | head -8
echo "== pytest ($(date +%T))"
PROJKIT_LIB="$BIN/libprojkit.so" timeout 200 python3 -m pytest -q -p no:cacheprovider tests/python/test_binding.py \
  >"$O/pytest.txt" 2>&1; echo "pytest rc=$? | $(tail -1 "$O/pytest.txt")"
echo "== check ($(date +%T))"
timeout 120 "$BIN/projkit" check --families unpooler --m 1..16 >"$O/check-unpooler.txt" 2>&1
echo "check rc=$? | $(tail -1 "$O/check-unpooler.txt")"
echo "done ($SECONDS s)"
