#!/usr/bin/env bash
# Run R (session 16): plan R = plan Q with every equal-split wgmma_tma red5 range on its rk1 twin
# (red5's own entry point, E59 / E59b). First the plan A/B on this machine (the default workload,
# plan Q against plan R, 200 pairs, Q R R Q, two rounds, through plan_ab_q.sh), then the full
# results on plan R (plans/h200.json). In plan_ab_q.sh's output "O" is plan Q and "Q" is plan R.
# Usage: tools/experiments/run_r.sh BIN OUT_DIR PLAN_Q   (~8 min; BIN also holds libprojkit.so for pytest)
set -u
BIN=${1:?}; O=${2:?}; PQ=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for round in 1 2; do
  echo "== plan A/B round $round ($(date +%T))"
  tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" "$PQ" plans/h200.json 2>&1 | head -40
done
echo "== results (tools/device_results.sh) ($(date +%T))"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 470 tools/device_results.sh "$BIN" "$O/res" \
  "tests floor bench aa sweep check fidelity pytest report" >"$O/results.txt" 2>&1; echo "rc=$?"
tail -25 "$O/results.txt"
