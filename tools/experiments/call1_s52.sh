#!/usr/bin/env bash
# Session 52, call 1: E115, x prefetched into L2 in address order at the ring's entry (config key
# xp1 on router_hilo_ring's two lean-start configs; ledger E115).
# 1. Correctness: the router ring's GPU suites (every ring config, xp1 included: fp64 reference,
#    NaN / Inf, graph replay twice, two Projections on two streams) and `projkit check --method` of
#    both xp1 configs over router M 1..256.
# 2. If both checks passed: the same-binary A/B (200 pairs, A B B A per case) of the card's plan
#    method at router M 72 / 96 / 128 / 160 / 192 / 256 against its xp1 twin.
# Rule (fixed before the call): a plan range of the router moves to the xp1 twin only if the twin
# gains >= 1 % in paired ratio and in time at every measured M inside that range; otherwise xp1 is
# removed from the tree.
# Usage: tools/experiments/call1_s52.sh BIN OUT_DIR   (BIN: projkit, projkit_gpu_tests; ~3 min)
# Ran once (H100, 23 s; results/h100/session52/c1-e115-x-prefetch/); xp1 was refuted and removed in
# 57f55eb, so on a later tree the checks refuse the xp1 configs and no A/B runs.
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
source tools/experiments/red5_ab_lib.sh
PLAN=$(device_plan "$O") || exit 3
R=router_hilo_ring
A=$R.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
B=$R.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily.*/router_hilo_ring:RouterLayouts.*' \
  "router:1..256:$A.xp1" "router:1..256:$B.xp1" | tee "$O/ab/correctness.txt"
if [ "$(cat "$O/ab/check-$A.xp1.txt")" = "check: PASS" ] && [ "$(cat "$O/ab/check-$B.xp1.txt")" = "check: PASS" ]; then
  CASES=""
  for m in 72 96 128 160 192 256; do
    p=$(plan_at router $m)
    case $p in $A | $B) CASES="$CASES router:$m:$p,$p.xp1" ;; *) echo "router M $m: plan runs $p (no xp1 twin)" ;; esac
  done
  CASES=$CASES PAIRS=200 TAG=e115 timeout 420 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
fi
(cd "$O/ab" && tar cJf ../logs.tar.xz gtest.txt check-*.txt correctness.txt && rm -f gtest.txt check-*.txt)
echo "== E115 (us, paired ratio against the plan's ring config; $PLAN)"
cat "$O/ab/summary-e115.txt" 2>/dev/null || echo "no A/B (a check failed?)"
cat "$O/ab/correctness.txt"
echo "done ($SECONDS s)"
