#!/usr/bin/env bash
# Session 61, call 1 (prepared in session 61, which had no device; any card):
# - the whole GPU gtest suite (~35 s on an H200 in session 43), which since session 61 holds
#   splitk_mma_cluster in Dense/SplitkStream (every config on the four dense families at M 1..64
#   against the fp64 reference with y poisoned, two graph replays, two Projections on two streams,
#   NaN then a clean call): that family was in no GPU test before; and LabGpu.TuneSmokeOneFamilyTwoM
#   (run_tune on o at M 8 / 9 over splitk_mma_l2's configs: before, only the CLI's tune runs on the
#   device exercised it); and LabGpu.ShippedPlanGraphReplayBesideASecondStream (the device's plan,
#   two Projections per family, one replayed from a CUDA graph beside the other on a second stream,
#   at the scored loads and inside every plan range); into gtest.txt;
# - Dense/SplitkStream and the plan-beside-a-second-stream test under compute-sanitizer memcheck
#   (tests/run_memcheck.sh with that filter); into memcheck.txt;
# - the two examples (projkit_example_c, projkit_example_graph: each checks its output against
#   fp64 and exits non-zero on a mismatch); into examples.txt;
# - then call1_s58.sh with what is left of LIMIT_S (on an H200: P45, the ProjectionGpu / LabGpu
#   gtests, the binding's pytest and its serving plan; on any other card the torch module's tests).
# Prints a short table last. Usage: tools/experiments/call1_s61.sh CARRY.tar.xz OUT [LIMIT_S]
# (CARRY as for call1_s53.sh plus the two examples, built at or after session 61's commits:
# .devcarry/c3s61.tar.xz; LIMIT_S, default 560: the whole call's)
set -u
T=${1:?}; O=${2:?}; LIMIT=${3:-560}; mkdir -p "$O"
mkdir -p /tmp/c && tar xJf "$T" -C /tmp/c || exit 2
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$O/card-s61.txt"
timeout 150 /tmp/c/bin/projkit_gpu_tests >"$O/gtest.txt" 2>&1
g=$?
# The examples (examples/c_abi.c, examples/projection_graph.cpp) against the carried library.
for ex in projkit_example_c projkit_example_graph; do
  [ -x /tmp/c/bin/$ex ] || { echo "$ex: not in the carry" >>"$O/examples.txt"; continue; }
  LD_LIBRARY_PATH=/tmp/c/bin:$LD_LIBRARY_PATH timeout 120 /tmp/c/bin/$ex >>"$O/examples.txt" 2>&1
  echo "$ex rc=$?" >>"$O/examples.txt"
done
MF='Dense/SplitkStream.*:LabGpu.ShippedPlanGraphReplayBesideASecondStream'
PROJKIT_MEMCHECK_FILTER=$MF timeout 240 tests/run_memcheck.sh /tmp/c/bin/projkit_gpu_tests >"$O/memcheck.txt" 2>&1
mc=$?
summary() {
  echo "== session 61 call 1 ($SECONDS s)"
  echo "gtest rc=$g | $(grep -E '^\[  (PASSED|FAILED) ' "$O/gtest.txt" | tr '\n' ' ')"
  grep -E '^\[  FAILED  \] ' "$O/gtest.txt" | head -20
  echo "splitk_mma_cluster: $(grep -cE '^\[       OK \] Dense/SplitkStream\..*/1 ' "$O/gtest.txt") of 4 tests OK;" \
    "tune smoke: $(grep -cE '^\[       OK \] LabGpu\.TuneSmokeOneFamilyTwoM ' "$O/gtest.txt") of 1 OK;" \
    "plan beside a second stream: $(grep -cE '^\[       OK \] LabGpu\.ShippedPlanGraphReplayBesideASecondStream ' \
      "$O/gtest.txt") of 1 OK"
  echo "memcheck ($MF) rc=$mc | $(grep -E 'ERROR SUMMARY' "$O/memcheck.txt")"
  echo "examples: $(grep -E ' rc=|not in the carry' "$O/examples.txt" | tr '\n' ' ')"
}
summary
left=$((LIMIT - SECONDS))
[ $left -gt 120 ] && tools/experiments/call1_s58.sh "$T" "$O" "$left" || echo "call1_s58 skipped: ${left} s left"
summary
