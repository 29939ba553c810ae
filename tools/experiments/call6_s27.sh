#!/usr/bin/env bash
# Session 27, call 6: the final tree's GPU suite. Since call 5's binary, router_hilo_stream and
# router_hilo_wgmma take W's packed hi / lo fragments from the Projection's SharedLayouts (one copy
# for plan Z6c's two router_hilo_stream tiles instead of two; host only, every router kernel's .text
# byte-identical), with a new test, RouterLayouts.StreamTilesShareOnePackedCopy. Runs the whole GPU
# suite, `projkit check` of the router over M 1..256 (the plan), and the Python binding's tests.
# Usage: tools/experiments/call6_s27.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 150 "$BIN/projkit_gpu_tests" >"$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gpu-tests.txt" | tr '\n' ' ')"
grep -E "RouterLayouts|FAILED" "$O/gpu-tests.txt" | head -8
timeout 60 "$BIN/projkit" check --families router --m 1..256 --json "$O/check-router.json" >"$O/check-router.txt" 2>&1
echo "check router rc=$? | $(tail -1 "$O/check-router.txt")"
PROJKIT_LIB="$PWD/$BIN/libprojkit.so" timeout 90 python3 -m pytest -q -p no:cacheprovider tests/python/test_binding.py \
  >"$O/pytest.txt" 2>&1
echo "pytest rc=$? | $(tail -1 "$O/pytest.txt")"
echo "done ($SECONDS s)"
