#!/usr/bin/env bash
# Session 41, call 1 (ran on an H200: results/h200/session41/c1-e109-quad-final; wmc2 was refused at
# prepare there, 30 of its 32 clusters of 4 co-resident, and removed; the config this script names no
# longer exists): E109 (router_hilo_ring wmc2: 8 K splits x 4 token slices, W multicast over a
# cluster of 4) and the GPU suite owed by session 40 on this binary.
# 1. Correctness of E109: the router GPU suites (every router config, wmc2 among them: fp64
#    reference, NaN / Inf, graph replay twice, two Projections on two streams), then
#    `projkit check --method` over router M 1..256.
# 2. If it passed: the same-binary A/B (200 pairs, A B B A per case) against the plan's ring config
#    at router M 72 / 128 / 192 / 256.
# 3. tools/device_results.sh "tests bench check" (BENCH_PAIRS=200): the whole GPU suite with
#    memcheck, the default bench and check over M 1..256 on the shipped plan (E109 is not in it).
# Usage: tools/experiments/call1_s41.sh BIN OUT_DIR   (~6 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$O/device.txt"
P=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
E=router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc2.lf1.ls1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily.*:RouterLayouts.*' "router:1..256:$E" \
  | tee "$O/ab/correctness.txt"
hung=0; grep -q "rc=124" "$O/ab/correctness.txt" && hung=1
if [ "$(cat "$O/ab/check-$E.txt")" = "check: PASS" ]; then
  CASES="router:72:$P,$E router:128:$P,$E router:192:$P,$E router:256:$P,$E" PAIRS=200 TAG=e109 \
    timeout 240 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
fi
if [ $hung = 0 ]; then STEPS="tests bench check"; else STEPS="bench check"; fi
BENCH_PAIRS=200 timeout 330 tools/device_results.sh "$BIN" "$O/final" "$STEPS" >"$O/final-stdout.txt" 2>&1
echo "== E109 (us, paired ratio against the plan's ring config)"
cat "$O/ab/summary-e109.txt" 2>/dev/null || echo "no A/B (check failed?)"
echo "== final"; grep -E "PASSED|FAILED|ERROR SUMMARY|check:" "$O/final-stdout.txt" | head; tail -40 "$O/final-stdout.txt"
echo "done ($SECONDS s)"
