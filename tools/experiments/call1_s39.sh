#!/usr/bin/env bash
# Session 39's call 1 (prepared while loans were paused; ran on an H100 80GB HBM3 when they resumed,
# results/h100/session39/c1-tests-p40-bench/, followed by device_results.sh's bench and check):
# 1. the GPU tests (BenchSmokeOneCase now asserts the four order medians) and the Python suite with
#    torch (test_binding.py's new cases: every refusal by message; out= and m = 0 against F.linear);
# 2. P40 (tools/experiments/p40_order_split.sh: the pair order split, in-place vs copied W).
# Usage: tools/experiments/call1_s39.sh BIN_DIR OUT_DIR   (~3 min; 5 files out)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== GPU tests ($(date +%T))"
"$BIN/projkit_gpu_tests" >"$O/gpu-tests.txt" 2>&1; echo "gpu tests rc=$?"; tail -1 "$O/gpu-tests.txt"
echo "== Python suite with torch ($(date +%T))"
PROJKIT_LIB="$BIN/libprojkit.so" timeout 300 python3 -m pytest -q -p no:cacheprovider tests/python >"$O/pytest.txt" 2>&1
echo "pytest rc=$?"; tail -1 "$O/pytest.txt"
echo "== P40 ($(date +%T))"
tools/experiments/p40_order_split.sh "$BIN" "$O/p40" >/dev/null 2>&1; echo "p40 rc=$?"
mv "$O/p40/p40.txt" "$O/p40/p40.tar.xz" "$O/" 2>/dev/null; rmdir "$O/p40" 2>/dev/null
echo "== P40: each side's median by its place in the pair ($(date +%T), $SECONDS s)"
cat "$O/p40.txt" 2>/dev/null || echo "no p40.txt"
