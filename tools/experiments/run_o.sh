#!/usr/bin/env bash
# Run O (session 13): E51 (gemv_stream rows4.warps8: a block's whole W in flight, for the
# unpooler slice) measured against the plan's gemv configs in one binary; the unpooler M 1..8
# ranges re-tuned with it listed (from run N's log); the full results; then an A/B of the
# review-mend binary of call 5 (wgmma_tma: one TMA issue path, tensor maps prefetched and
# policies made once; router_hilo_ring early1: no second x-map prefetch) against this binary,
# whose wgmma_tma and router_hilo_ring cubins are run N's. (As run in session 13 the A/B loop was
# written out here, files ab-F1 .. ab-F2; since session 17 it is plan_ab_q.sh's binary A/B,
# files ab/ab-O1 .. ab/ab-O2, the same four bench runs.)
# Usage: tools/experiments/run_o.sh BIN MEND_BIN OUT_DIR   (~6 min)
set -u
BIN=${1:?}; MB=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
step "E51: gemv_stream rows4.warps8 vs the plan's gemv config, 200 pairs, base / var / var / base"
while read -r fam m base var; do
  n=0
  for v in "$base" "$var" "$var" "$base"; do
    n=$((n + 1)); tag=$([ "$v" = "$base" ] && echo base || echo var)
    timeout 40 "$BIN/projkit" bench --pairs 200 --families "$fam" --loads "$m" --method "gemv_stream.$v" \
      --json "$O/e51-$fam-$m-$n.$tag.json" >"$O/e51-$fam-$m-$n.$tag.txt" 2>&1 || echo "bench $fam $m $v rc=$?"
  done
done <<'LIST'
unpooler 1 rows4.warps4 rows4.warps8
unpooler 2 rows4.warps4 rows4.warps8
qkv 1 rows2.warps8 rows4.warps8
pooler 1 rows2.warps8 rows4.warps8
LIST
python3 - "$O" <<'PY' | tee "$O/e51-summary.txt"
import json, glob, os, sys, statistics as st
res = {}
for f in glob.glob(os.path.join(sys.argv[1], 'e51-*.json')):
    _, fam, m, rest = os.path.basename(f)[:-5].split('-')
    try: c = json.load(open(f))['cases'][0]
    except Exception: continue
    res.setdefault((fam, int(m)), {}).setdefault(rest.split('.')[1], []).append((c['ratio'], c['cand_us']))
for (fam, m), v in sorted(res.items()):
    if 'base' not in v or 'var' not in v: continue
    b = st.mean(x[0] for x in v['base']); bu = st.mean(x[1] for x in v['base'])
    r = st.mean(x[0] for x in v['var']); ru = st.mean(x[1] for x in v['var'])
    print(f'E51 {fam:9s} M {m}: base {bu:.2f} us r{b:.3f} | rows4.warps8 {ru:.2f} us r{r:.3f} ({100 * (r / b - 1):+.1f}%)')
PY
LOG=plans/tune-logs/h200-tune.jsonl
step "retune unpooler M 1..8 (gemv_stream, kperm_stream_mma, splitk_mma_cluster, splitk_mma_l2, wgmma_tma)"
LOG=$LOG timeout 150 tools/retune_ranges.sh "$BIN/projkit" "$O/rt-u" unpooler 1..8 \
  gemv_stream,kperm_stream_mma,splitk_mma_cluster,splitk_mma_l2,wgmma_tma
[ -s "$O/rt-u/tune.jsonl" ] && [ -s "$O/rt-u/h200.json" ] && LOG=$O/rt-u/tune.jsonl && cp "$O/rt-u/h200.json" plans/h200.json
echo "final log: $LOG"; cp "$LOG" "$O/tune-final.jsonl"; cp plans/h200.json "$O/plan-o.json"
step "results (tools/device_results.sh)"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 330 tools/device_results.sh "$BIN" "$O/res" \
  "tests floor bench aa sweep check fidelity pytest report" >"$O/results.txt" 2>&1; echo "rc=$?"
tail -25 "$O/results.txt"
step "A/B: this binary (F, plan_ab_q.sh's O) vs the review-mend binary (M, its Q), plan O, 200 pairs, F M M F"
BIN_Q=$MB tools/experiments/plan_ab_q.sh "$BIN" "$O/ab" plans/h200.json plans/h200.json
rm -f "$O"/rt-*/kept.jsonl "$O"/rt-*/tune.jsonl  # the final log is $O/tune-final.jsonl
