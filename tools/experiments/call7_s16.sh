#!/usr/bin/env bash
# Session 16, call 7: the review mend (one kernel_for picks wgmma_tma's entry point; host only)
# on the device: the Dense wgmma_tma GPU suites (the Red5 suite runs every rk1 twin at every
# resident M, three launches each) and `projkit check` of the plan (plan R) for qkv / pooler /
# unpooler at M 1..256; then a third plan A/B round, plan Q against plan R.
# Usage: tools/experiments/call7_s16.sh BIN OUT PLAN_Q   (~1.5 min)
set -u
BIN=${1:?}; O=${2:?}; PQ=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 200 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTma*' >"$O/tests.txt" 2>&1; echo "tests rc=$?"; tail -1 "$O/tests.txt"
timeout 120 "$BIN/projkit" check --families qkv,pooler,unpooler --m 1..256 --json "$O/check.json" >"$O/check.txt" 2>&1
echo "check rc=$?"; tail -1 "$O/check.txt"
echo "== plan A/B round 3 (O = plan Q, Q = plan R)"
tools/experiments/plan_ab_q.sh "$BIN" "$O/ab3" "$PQ" plans/h200.json 2>&1 | head -30
tar cJf "$O/ab3.tar.xz" -C "$O" ab3 && rm -rf "$O/ab3" && xz -9 "$O/check.json"
