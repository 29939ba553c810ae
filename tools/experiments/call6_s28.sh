#!/usr/bin/env bash
# Session 28, call 6: the final tree's GPU suite. Since run Z7b's binary the review mend moved
# gemv_stream's lean body behind a LEAN flag on the existing entry points and reduced
# ptx::ld_stream_hint_guarded to the load and its predicate (every gemv kernel's .text byte-identical
# to run Z7b's; the host code that picks them changed). Runs the whole GPU suite, `projkit check`
# of the plan over the dense families at M 1..16 (the lp1 ranges) and the Python binding's tests.
# Usage: tools/experiments/call6_s28.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 150 "$BIN/projkit_gpu_tests" >"$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gpu-tests.txt" | tr '\n' ' ')"
grep -E "FAILED" "$O/gpu-tests.txt" | head -8
timeout 90 "$BIN/projkit" check --families qkv,o,pooler,unpooler --m 1..16 --json "$O/check-dense-1-16.json" \
  >"$O/check-dense-1-16.txt" 2>&1
echo "check dense 1..16 rc=$? | $(tail -1 "$O/check-dense-1-16.txt")"
PROJKIT_LIB="$PWD/$BIN/libprojkit.so" timeout 90 python3 -m pytest -q -p no:cacheprovider tests/python/test_binding.py \
  >"$O/pytest.txt" 2>&1
echo "pytest rc=$? | $(tail -1 "$O/pytest.txt")"
echo "done ($SECONDS s)"
