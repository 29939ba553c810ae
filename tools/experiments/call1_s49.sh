#!/usr/bin/env bash
# Session 49, call 1: the device's full results with HEAD's build (fafaafa; its kernels are those of
# 218cbe7, which ran on an H100 in session 48, and, on the H200, the planned kernels of run Z12b).
# No experiment: the H200's committed results (results/h200/, run Z12b) are from 3cb94e5's build
# (session 34); since then E106..E111 were added and removed again, so this checks that the tree
# as it stands gives run Z12b's numbers, with every step of tools/device_results.sh:
# default bench (400 pairs), check over M 1..256, A/A, baseline fidelity against torch, the Python
# binding against torch, the floor, the GPU tests (and memcheck), the 1..256 sweep (300 pairs) and
# its atlas.
# On an H100 it runs the same against plans/h100-80gb-hbm3.json (the H100's last full set, with the
# sweep, is session 36's, before session 42 moved router M 193..256).
# Usage: tools/experiments/call1_s49.sh BIN OUT   (BIN holds projkit, projkit_gpu_tests,
#   libprojkit.so; ~4.5 min). Everything is packed into OUT/results.tar.xz (the run tool brings
#   back at most 8 files).
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv
  "$BIN/projkit" info 2>&1 | head -4
} >"$O/device.txt" 2>&1
cat "$O/device.txt"
BENCH_PAIRS=400 SWEEP_PAIRS=300 tools/device_results.sh "$BIN" "$O/r" \
  "bench check aa fidelity pytest floor tests sweep report"
rc=$?
tar cJf "$O/results.tar.xz" -C "$O" r && rm -rf "$O/r"
echo "device_results rc=$rc ($SECONDS s)"
exit $rc
