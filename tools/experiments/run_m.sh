#!/usr/bin/env bash
# Run M (session 12): E44's build, the unpooler's M 193..256 re-tuned on it (the other ranges keep
# plan L's decisions), the full results, and an A/B against run L's binary and plan in the same call.
# Usage: tools/experiments/run_m.sh NEW_BIN OLD_BIN PLAN_L OUT_DIR
#   NEW_BIN: projkit, projkit_gpu_tests, libprojkit.so of this tree; OLD_BIN: run L's projkit;
#   PLAN_L: run L's plan (a copy of plans/h200.json before this script overwrites it). ~6 min.
set -u
NEW=${1:?}; OLD=${2:?}; PL=${3:?}; O=${4:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
step "retune unpooler M 193..256 (wgmma_tma, cublaslt; the baseline is always a candidate)"
timeout 120 tools/retune_ranges.sh "$NEW/projkit" "$O/rt-u" unpooler 193..256 wgmma_tma,cublaslt; echo "rc=$?"
if [ -s "$O/rt-u/h200.json" ]; then cp "$O/rt-u/h200.json" plans/h200.json; else echo "retune failed: plan L kept"; fi
step "results (tools/device_results.sh)"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 420 tools/device_results.sh "$NEW" "$O/res" \
  "tests floor bench aa sweep check fidelity pytest report" >"$O/results.txt" 2>&1; echo "rc=$?"
tail -25 "$O/results.txt"
step "A/B: run L (binary + plan L) vs run M (binary + plan M), 200 pairs, L M M L"
for r in L1 M1 M2 L2; do
  case $r in L*) B=$OLD; P=$PL;; M*) B=$NEW; P=plans/h200.json;; esac
  timeout 40 "$B/projkit" bench --pairs 200 --plan "$P" --json "$O/ab-$r.json" >"$O/ab-$r.txt" 2>&1 || echo "ab $r rc=$?"
done
python3 - "$O" <<'PY'
import json, sys, os
O = sys.argv[1]
d = {}
for r in ('L1', 'M1', 'M2', 'L2'):
    try: d[r] = json.load(open(os.path.join(O, f'ab-{r}.json')))
    except Exception: pass
print('A/B scores:', ' '.join(f"{r} {v['score']:.4f}" for r, v in d.items()))
if len(d) == 4:
    for i, c in enumerate(d['L1']['cases']):
        rl = (d['L1']['cases'][i]['ratio'] + d['L2']['cases'][i]['ratio']) / 2
        rm = (d['M1']['cases'][i]['ratio'] + d['M2']['cases'][i]['ratio']) / 2
        if d['M1']['cases'][i]['method'] != c['method'] or abs(rm / rl - 1) > 0.01:
            print(f"  {c['family']:9s} M {c['m']:3d} ratio L {rl:.3f} M {rm:.3f} ({100*(rm/rl-1):+.1f}%)  {c['method'][:40]} -> {d['M1']['cases'][i]['method'][:40]}")
PY
