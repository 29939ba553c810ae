#!/usr/bin/env bash
# Session 53, call 1:
# - on any card: the session's host change (Projection::run refuses a y that overlaps x or W) on the
#   GPU: the ProjectionGpu and LabGpu gtests and the binding's pytest files (~20 s), both outputs
#   in validation.txt;
# - then, on an H200 only: its serving plan (session 51's call1_s51.sh, ledger E114; ~7-9 min,
#   stopped at LIMIT_S: what it wrote by then is packed into partial.tar.xz).
# Usage: tools/experiments/call1_s53.sh CARRY.tar.xz OUT [LIMIT_S]   (the tarball holds bin/projkit,
# bin/libprojkit.so and bin/projkit_gpu_tests; LIMIT_S, default 570: the serving plan's limit, below
# the device time left; 0 skips the serving plan, for a call with too little device time left for it).
# P45 and P42 on an H200: call2_s53.sh.
set -u
T=${1:?}; O=${2:?}; LIMIT=${3:-570}; mkdir -p "$O"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader | tee "$O/card.txt"
mkdir -p /tmp/c && tar xJf "$T" -C /tmp/c || exit 2
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
V=$O/validation.txt
timeout 240 /tmp/c/bin/projkit_gpu_tests --gtest_filter='ProjectionGpu.*:LabGpu.*' >"$V" 2>&1
echo "gtest rc=$? ($SECONDS s)" | tee -a "$V"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]" "$V"
PROJKIT_LIB=/tmp/c/bin/libprojkit.so timeout 240 python3 -m pytest -q -p no:cacheprovider \
  tests/python/test_binding.py tests/python/test_binding_checks.py >>"$V" 2>&1
echo "pytest rc=$? ($SECONDS s)" | tee -a "$V"; tail -2 "$V" | head -1
grep -q H200 "$O/card.txt" || exit 0
[ "$LIMIT" -gt 0 ] || { echo "serving plan skipped (LIMIT_S 0)"; exit 0; }
timeout "$LIMIT" tools/experiments/call1_s51.sh /tmp/c/bin "$O"
rc=$?; echo "call1_s51 rc=$rc ($SECONDS s)"
[ $rc = 124 ] && { pkill -f /tmp/c/bin/ ; sleep 1; }  # timeout stops the script, not its running child
# Stopped before its own packing (the per-call limit): pack what it wrote, so that it all comes back.
if [ -d "$O/b" ]; then
  (cd "$O" && tar cJf partial.tar.xz --exclude=card.txt --exclude=validation.txt --exclude=partial.tar.xz . &&
    find . -mindepth 1 -not -name card.txt -not -name validation.txt -not -name partial.tar.xz -delete)
  ls "$O"
fi
