#!/usr/bin/env bash
# Session 18, call 7 (call 6 was refused): the fixed sharing test (CublasLtPlan.*Share*: its m = 1
# read past y in call 5), the red5 GPU suite (the wsl1 configs, wt1.wsl1's fallback), and one plan
# A/B round of plan T (shipped) against candidate plan T2 (results/h200/session18/plan-t2.json:
# unpooler M 9..16 on bm64.split2.rk1.ki1.wsl1). Too little device time was left for T2's full
# results run, so nothing ships from this call.
# Usage: tools/experiments/call7_s18.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
echo "== gpu tests ($(date +%T))"
timeout 120 "$BIN/projkit_gpu_tests" --gtest_filter='CublasLtPlan.*Share*' >"$O/gtest-share.txt" 2>&1; echo "rc=$?"
grep -E "^\[  (PASSED|FAILED) " "$O/gtest-share.txt"
red5_suite "$BIN" "$O"
echo "== plan A/B, T (O) against T2 (Q) ($(date +%T))"
tools/experiments/plan_ab_q.sh "$BIN" "$O/ab" plans/h200.json results/h200/session18/plan-t2.json >/dev/null
cat "$O/ab/ab-summary.txt"
tar cJf "$O/logs.tar.xz" -C "$O" gtest-share.txt gtest.txt ab && rm -rf "$O/gtest-share.txt" "$O/gtest.txt" "$O/ab"
