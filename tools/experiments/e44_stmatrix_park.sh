#!/usr/bin/env bash
# Ledger E44 (session 12): wgmma_tma's bf16 partial tile parked by stmatrix.x4.trans (16 per
# thread at bm256) instead of 128 scalar 16-bit stores, dead token groups skipped (red5).
# Usage: tools/experiments/e44_stmatrix_park.sh OLD_BIN NEW_BIN STAMPS_BIN OUT_DIR
#   OLD_BIN: run L's build (the base); NEW_BIN: this change; STAMPS_BIN: this change built with
#   -DPROJKIT_WGMMA_STAMPS=1. Every step has its own timeout; ~4 min in all.
set -u
OLD=${1:?old bin}; NEW=${2:?new bin}; ST=${3:?stamps bin}; O=${4:?out}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
step "gpu tests (new)"
timeout 120 "$NEW/projkit_gpu_tests" >"$O/gpu-tests.txt" 2>&1; echo "rc=$?"; tail -2 "$O/gpu-tests.txt"
step "memcheck Dense/WgmmaTmaRed* (new)"
PROJKIT_MEMCHECK_FILTER='Dense/WgmmaTmaRed*' timeout 150 tests/run_memcheck.sh "$NEW/projkit_gpu_tests" >"$O/memcheck.txt" 2>&1
echo "rc=$?"; tail -3 "$O/memcheck.txt"
step "check qkv,pooler,unpooler M 1..256 (new, plan L)"
timeout 90 "$NEW/projkit" check --families qkv,pooler,unpooler --json "$O/check-dense.json" >"$O/check-dense.txt" 2>&1
echo "rc=$?"; tail -3 "$O/check-dense.txt"
step "bench default workload: old / new / new / old, 400 pairs"
n=0
for v in old new new old; do
  n=$((n + 1)); B=$OLD; [ $v = new ] && B=$NEW
  timeout 60 "$B/projkit" bench --pairs 400 --json "$O/bench-$n-$v.json" >"$O/bench-$n-$v.txt" 2>&1 || echo "bench $n $v rc=$?"
done
step "bench dense M 64,96,160,192,224: old / new / new / old, 200 pairs"
n=0
for v in old new new old; do
  n=$((n + 1)); B=$OLD; [ $v = new ] && B=$NEW
  timeout 60 "$B/projkit" bench --pairs 200 --families qkv,pooler,unpooler --loads 64,96,160,192,224 \
    --json "$O/benchx-$n-$v.json" >"$O/benchx-$n-$v.txt" 2>&1 || echo "benchx $n $v rc=$?"
done
step "unpooler M 200,224,240,256: red5 bm256.split2 (new) vs plan (new), 200 pairs"
timeout 60 "$NEW/projkit" bench --pairs 200 --families unpooler --loads 200,224,240,256 \
  --method wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5 --json "$O/unp-bm256.json" >"$O/unp-bm256.txt" 2>&1 || echo "unp rc=$?"
step "stamps (P4 cases, new)"
timeout 120 tools/experiments/p4_straggler_stamps.sh "$ST" "$O/p4" >"$O/p4.txt" 2>&1; echo "rc=$?"
python3 tools/experiments/p4_analyze.py "$O/p4" >"$O/p4/analysis.txt" 2>&1
python3 - "$O/p4" >"$O/p4/phases.txt" <<'PY'
import csv, glob, statistics as st, sys
from collections import defaultdict
d = defaultdict(list)
for f in glob.glob(sys.argv[1] + '/stamps-*.csv'):
    for r in csv.reader(open(f)):
        d[r[0]].append([int(x) for x in r[5:12]])
for k, rows in sorted(d.items()):
    park = [(r[3] - r[2]) / 1e3 for r in rows]; red = [(r[5] - r[3]) / 1e3 for r in rows]
    print(f'{k}: park median {st.median(park):.2f} us; red issue median {st.median(red):.2f} max {max(red):.2f}')
PY
step "summary"
python3 - "$O" <<'PY'
import json, glob, sys, os
O = sys.argv[1]
def load(p):
    try: return json.load(open(p))
    except Exception: return None
for pat in ('bench-*.json', 'benchx-*.json'):
    runs = sorted(glob.glob(os.path.join(O, pat)))
    if not runs: continue
    data = {os.path.basename(r): load(r) for r in runs}
    keys = None
    rows = {}
    for name, d in data.items():
        if not d: continue
        for c in d['cases']:
            rows.setdefault((c['family'], c['m']), {})[name] = (c['cand_us'], c['method'])
    print(pat, ' '.join(data), ' score ' + ' '.join('%.4f' % d['score'] for d in data.values() if d and 'score' in d))
    for (f, m), v in sorted(rows.items()):
        old = [x[0] for n, x in v.items() if 'old' in n]; new = [x[0] for n, x in v.items() if 'new' in n]
        meth = next(iter(v.values()))[1]
        if old and new:
            print(f'  {f:9s} M {m:3d} old {sum(old)/len(old):7.2f} new {sum(new)/len(new):7.2f} diff {sum(new)/len(new)-sum(old)/len(old):+6.2f}  {meth}')
d = load(os.path.join(O, 'unp-bm256.json'))
if d:
    for c in d['cases']: print(f"  unpooler M {c['m']} bm256.split2.red5 {c['cand_us']:.2f} baseline {c['base_us']:.2f} ratio {c['ratio']:.3f}")
PY
cat "$O/p4/phases.txt"
