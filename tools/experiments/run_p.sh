#!/usr/bin/env bash
# Run P (session 14): E53 (router_hilo_ring early2: x's tensor map prefetched at kernel entry)
# listed; its gate and same-binary A/B against early1 again (e53_ring_map_prefetch.sh); run O's
# log with the router M 65..256 re-tuned (router_hilo_ring, router_hilo_stream); the full results.
# Usage: tools/experiments/run_p.sh BIN OUT_DIR   (~7 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
step "E53 gate and A/B (tools/experiments/e53_ring_map_prefetch.sh)"
tools/experiments/e53_ring_map_prefetch.sh "$BIN" "$O/e53"
LOG=plans/tune-logs/h200-tune.jsonl
step "retune router M 65..256 (router_hilo_ring, router_hilo_stream)"
LOG=$LOG timeout 120 tools/retune_ranges.sh "$BIN/projkit" "$O/rt-r" router 65..256 router_hilo_ring,router_hilo_stream
[ -s "$O/rt-r/tune.jsonl" ] && [ -s "$O/rt-r/h200.json" ] && LOG=$O/rt-r/tune.jsonl && cp "$O/rt-r/h200.json" plans/h200.json
echo "final log: $LOG"; cp "$LOG" "$O/tune-final.jsonl"; cp plans/h200.json "$O/plan-p.json"
python3 -c "import json,sys; [print(' ', r['m'], r['method']) for r in json.load(open(sys.argv[1]))['families']['router']]" plans/h200.json
step "results (tools/device_results.sh)"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 330 tools/device_results.sh "$BIN" "$O/res" \
  "tests floor bench aa sweep check fidelity pytest report" >"$O/results.txt" 2>&1; echo "rc=$?"
tail -25 "$O/results.txt"
rm -f "$O"/rt-*/kept.jsonl "$O"/rt-*/tune.jsonl  # the final log is $O/tune-final.jsonl
