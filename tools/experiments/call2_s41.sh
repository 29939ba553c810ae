#!/usr/bin/env bash
# Session 41, call 2: E109 as built after call 1 (the cluster of 4 did not fit: 30 of 32 clusters
# co-resident): router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1, two W-sharing pairs per
# (K split, row tile), half the ring's K splits.
# 1. Correctness: the router GPU suites (every router config: fp64 reference, NaN / Inf, graph
#    replay twice, two Projections on two streams), then `projkit check --method` over M 1..256.
# 2. If it passed: the same-binary A/B (200 pairs, A B B A per case) against the plan's ring config
#    at router M 72 / 128 / 192 / 256.
# 3. The whole GPU suite on this binary, then the router suites under memcheck (call 1 ran the
#    whole suite under memcheck on the binary before E109's pairs: 0 errors).
# Rule (fixed before the call): the plan moves only where E109 gains >= 1 % in paired ratio and in
# time at every measured M of a range; otherwise it is removed.
# SHORT=1 (for a small device budget): the A/B at M 128 and 256 only (the ranges E109 predicts a
# loss and a gain at), no step 3 (~1.5 min).
# Usage: [SHORT=1] tools/experiments/call2_s41.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$O/device.txt"
P=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
E=router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily.*:RouterLayouts.*' "router:1..256:$E" \
  | tee "$O/ab/correctness.txt"
hung=0; grep -q "rc=124" "$O/ab/correctness.txt" && hung=1
if [ "$(cat "$O/ab/check-$E.txt")" = "check: PASS" ]; then
  MS="72 128 192 256"; [ "${SHORT:-0}" = 1 ] && MS="128 256"
  CASES=""; for m in $MS; do CASES="$CASES router:$m:$P,$E"; done
  CASES=$CASES PAIRS=200 TAG=e109 timeout 300 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
fi
if [ $hung = 0 ] && [ "${SHORT:-0}" != 1 ]; then
  timeout 120 "$BIN/projkit_gpu_tests" >"$O/final-stdout.txt" 2>&1
  PROJKIT_MEMCHECK_FILTER='Router/RouterFamily.*:RouterLayouts.*' timeout 150 tests/run_memcheck.sh \
    "$BIN/projkit_gpu_tests" >"$O/memcheck-router.txt" 2>&1
  tail -2 "$O/memcheck-router.txt" >>"$O/final-stdout.txt"
fi
echo "== E109 (us, paired ratio against the plan's ring config)"
cat "$O/ab/summary-e109.txt" 2>/dev/null || echo "no A/B (check failed?)"
echo "== GPU suite"; grep -E "PASSED|FAILED|ERROR SUMMARY" "$O/final-stdout.txt" | head
echo "done ($SECONDS s)"
