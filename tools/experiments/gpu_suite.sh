#!/usr/bin/env bash
# The final-tree step of session 30's calls (call2_s30.sh, call4_s30.sh, call5_s30.sh): the whole GPU
# suite into OUT_DIR/gtest.txt (its summary and first failures printed) and, with PYTEST=1, the
# binding's pytest into OUT_DIR/pytest.txt. Run from the repository root.
# Usage: [PYTEST=1] tools/experiments/gpu_suite.sh BIN OUT_DIR
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== GPU tests ($(date +%T))"
timeout 200 "$BIN/projkit_gpu_tests" >"$O/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | tr '\n' ' ')"
grep -E "^\[  FAILED  \]" "$O/gtest.txt" | head -8
if [ "${PYTEST:-0}" = 1 ]; then
  echo "== pytest ($(date +%T))"
  PROJKIT_LIB="$BIN/libprojkit.so" timeout 200 python3 -m pytest -q -p no:cacheprovider tests/python/test_binding.py \
    >"$O/pytest.txt" 2>&1; echo "pytest rc=$? | $(tail -1 "$O/pytest.txt")"
fi
