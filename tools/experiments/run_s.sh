#!/usr/bin/env bash
# Run S (session 17): plan S = plan R with the K splits interleaved (ki1, E63) on pooler M 65..75
# and 77..256, qkv M 129..256, unpooler M 65..117, 128 and 224..256 (by hand from E63's same-binary
# A/Bs, calls 2 and 3); call 4 ran it (results/h200/session17/plan-s.json). Plan S2 = plan S with
# qkv M 129..256 also in K-split-major block order (ko1, E64, call 5); call 6 ran it. First the
# plan A/B on this machine (the default workload, plan R against plans/h200.json, 200 pairs,
# R S S R, two rounds, through plan_ab_q.sh), then the full results on plans/h200.json. In
# plan_ab_q.sh's output "O" is plan R and "Q" the plan under test.
# Usage: tools/experiments/run_s.sh BIN OUT_DIR PLAN_R   (~6 min; BIN also holds libprojkit.so for pytest)
set -u
BIN=${1:?}; O=${2:?}; PR=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for round in 1 2; do
  echo "== plan A/B round $round ($(date +%T))"
  tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" "$PR" plans/h200.json 2>&1 | head -40
done
echo "== results (tools/device_results.sh) ($(date +%T))"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 470 tools/device_results.sh "$BIN" "$O/res" \
  "tests floor bench aa sweep check fidelity pytest report" >"$O/results.txt" 2>&1; echo "rc=$?"
tail -25 "$O/results.txt"
