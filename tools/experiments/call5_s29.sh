#!/usr/bin/env bash
# Session 29, call 5: E94b, kperm_splitk_zw with x staged in smem by one bulk copy per token row on
# an mbarrier (xs1; E94's cp.async wait let ptxas sink the W loads below it: in this build the eight
# W loads sit before the mbarrier's try_wait in the SASS). An A/B only: the session's device time
# has no room for a plan A/B and results, so a gain is left for a later session to ship.
# 1. GPU tests Dense/SplitkStream.*/5 (kperm_splitk_zw) and KpermStagedX.*; `projkit check
#    --method` of xs1 over unpooler / qkv / pooler M 1..8.
# 2. Same-binary A/B (ab_configs.sh, 300 pairs, the plan's method first) at unpooler M 3 / 5 / 8.
# Usage: tools/experiments/call5_s29.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
K=kperm_splitk_zw.wr4.wk2.u8
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/SplitkStream.*/5:KpermStagedX.*' \
  "unpooler:1..8:$K.xs1" "qkv:1..8:$K.xs1" "pooler:1..8:$K.xs1"
grep -E "^\[  FAILED  \]" "$O/ab/gtest.txt" | head -8
echo "== E94b A/B ($(date +%T))"
CASES=""
for m in 3 5 8; do CASES="$CASES unpooler:$m:$K,$K.xs1"; done
CASES=$CASES PAIRS=300 TAG=e94b timeout 100 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e94b.txt"
echo "done ($SECONDS s)"
