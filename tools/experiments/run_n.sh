#!/usr/bin/env bash
# Run N (session 12): E47 promoted (wgmma_tma red5's first ring fill before the CTA-wide barrier)
# and E48 listed (router_hilo_ring zw1.early1, the same for the router ring); the ranges they can
# move re-tuned on this build (router M 65..256 if E48 passes its tests; qkv / pooler / unpooler
# M 2..16; unpooler M 193..256), then the full results and an A/B against run M's binary and plan.
# Usage: tools/experiments/run_n.sh NEW_BIN OLD_BIN PLAN_M OUT_DIR   (~6 min)
set -u
NEW=${1:?}; OLD=${2:?}; PM=${3:?}; O=${4:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
LOG=plans/tune-logs/h200-tune.jsonl
step "E48 gate: Router GPU tests, check of router_hilo_ring...zw1.early1 over M 33..256"
timeout 60 "$NEW/projkit_gpu_tests" --gtest_filter='Router*' >"$O/e48-tests.txt" 2>&1; t=$?; tail -1 "$O/e48-tests.txt"
timeout 60 "$NEW/projkit" check --families router --m 33..256 --method router_hilo_ring.split16.wgn1.ts2.zw1.early1 \
  --json "$O/e48-check.json" >"$O/e48-check.txt" 2>&1; c=$?; tail -1 "$O/e48-check.txt"
if [ $t = 0 ] && [ $c = 0 ]; then
  step "retune router M 65..256 (router_hilo_ring, router_hilo_stream)"
  LOG=$LOG timeout 120 tools/retune_ranges.sh "$NEW/projkit" "$O/rt-r" router 65..256 router_hilo_ring,router_hilo_stream
  [ -s "$O/rt-r/tune.jsonl" ] && [ -s "$O/rt-r/h200.json" ] && LOG=$O/rt-r/tune.jsonl && cp "$O/rt-r/h200.json" plans/h200.json
else
  echo "E48 failed its gate (tests rc=$t, check rc=$c): router ranges keep plan M"
fi
step "retune qkv,pooler,unpooler M 2..16"
LOG=$LOG timeout 150 tools/retune_ranges.sh "$NEW/projkit" "$O/rt-s" qkv,pooler,unpooler 2..16 \
  gemv_stream,kperm_stream_mma,splitk_mma_cluster,splitk_mma_l2,wgmma_tma
[ -s "$O/rt-s/tune.jsonl" ] && [ -s "$O/rt-s/h200.json" ] && LOG=$O/rt-s/tune.jsonl && cp "$O/rt-s/h200.json" plans/h200.json
step "retune unpooler M 193..256 (wgmma_tma, cublaslt)"
LOG=$LOG timeout 90 tools/retune_ranges.sh "$NEW/projkit" "$O/rt-u" unpooler 193..256 wgmma_tma,cublaslt
[ -s "$O/rt-u/tune.jsonl" ] && [ -s "$O/rt-u/h200.json" ] && LOG=$O/rt-u/tune.jsonl && cp "$O/rt-u/h200.json" plans/h200.json
echo "final log: $LOG"; cp "$LOG" "$O/tune-final.jsonl"; cp plans/h200.json "$O/plan-n.json"
step "results (tools/device_results.sh)"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 330 tools/device_results.sh "$NEW" "$O/res" \
  "tests floor bench aa sweep check fidelity pytest report" >"$O/results.txt" 2>&1; echo "rc=$?"
tail -25 "$O/results.txt"
step "A/B: run M (binary + plan M) vs run N (binary + plan N), 200 pairs, M N N M"
for r in M1 N1 N2 M2; do
  case $r in M*) B=$OLD; P=$PM;; N*) B=$NEW; P=plans/h200.json;; esac
  timeout 40 "$B/projkit" bench --pairs 200 --plan "$P" --json "$O/ab-$r.json" >"$O/ab-$r.txt" 2>&1 || echo "ab $r rc=$?"
done
python3 - "$O" <<'PY'
import json, sys, os
O = sys.argv[1]
d = {}
for r in ('M1', 'N1', 'N2', 'M2'):
    try: d[r] = json.load(open(os.path.join(O, f'ab-{r}.json')))
    except Exception: pass
print('A/B scores:', ' '.join(f"{r} {v['score']:.4f}" for r, v in d.items()))
if len(d) == 4:
    for i, c in enumerate(d['M1']['cases']):
        rm = (d['M1']['cases'][i]['ratio'] + d['M2']['cases'][i]['ratio']) / 2
        rn = (d['N1']['cases'][i]['ratio'] + d['N2']['cases'][i]['ratio']) / 2
        print(f"  {c['family']:9s} M {c['m']:3d} ratio M {rm:.3f} N {rn:.3f} ({100*(rn/rm-1):+.1f}%)  {c['method'][:44]} -> {d['N1']['cases'][i]['method'][:44]}")
PY
rm -f "$O"/rt-*/kept.jsonl "$O"/rt-*/tune.jsonl  # the final log is $O/tune-final.jsonl
