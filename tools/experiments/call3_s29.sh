#!/usr/bin/env bash
# Session 29, call 3: E94, kperm_splitk_zw with x staged in smem (wr4.wk2.u8.xs1) at the unpooler
# slice's M 3..8, and if the rule moves the range, the ship of plan Z8c with its results.
# 1. GPU tests Dense/SplitkStream.*/5 (kperm_splitk_zw: every config on every dense family where it
#    applies, fp64 reference, NaN-poisoned y, graph replay, two streams) and KpermStagedX.*, the
#    same under compute-sanitizer memcheck; `projkit check --method` of xs1 over unpooler / qkv /
#    pooler M 1..8.
# 2. Same-binary A/B (ab_configs.sh, 300 pairs, the plan's method first) at unpooler M 3 / 4 / 5 / 6
#    / 8.
# 3. rule_and_ship.sh with plan_z8c_from_e94.py (fixed before the call): three plan A/B rounds of
#    plan Z8c against Z8b with session 22's verdict, and if it ships, its results.
# Usage: tools/experiments/call3_s29.sh BIN OUT_DIR   (~2 min, ~7 min if it ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
K=kperm_splitk_zw.wr4.wk2.u8
F='Dense/SplitkStream.*/5:KpermStagedX.*'
tools/experiments/check_candidates.sh "$BIN" "$O/ab" "$F" "unpooler:1..8:$K.xs1" "qkv:1..8:$K.xs1" "pooler:1..8:$K.xs1"
grep -E "^\[  FAILED  \]" "$O/ab/gtest.txt" | head -8
PROJKIT_MEMCHECK_FILTER="$F" timeout 120 tests/run_memcheck.sh "$BIN/projkit_gpu_tests" >"$O/ab/memcheck.txt" 2>&1
echo "memcheck rc=$? | $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$O/ab/memcheck.txt" | tr '\n' ' ')"
echo "== E94 A/B ($(date +%T))"
CASES=""
for m in 3 4 5 6 8; do CASES="$CASES unpooler:$m:$K,$K.xs1"; done
CASES=$CASES PAIRS=300 TAG=e94 KEEP_JSON=1 timeout 150 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e94.txt"
RESULTS=1 LEFT_S=$((${CALL_LEFT_S:-585} - SECONDS)) tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z8c_from_e94.py Z8c
echo "done ($SECONDS s)"
