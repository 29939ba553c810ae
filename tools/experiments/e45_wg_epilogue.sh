#!/usr/bin/env bash
# Ledger E44/E45 (session 12): run L's binary vs E44 (stmatrix park) vs E45 (red5 epilogue per
# consumer warpgroup), each the plan L, in ABCCBA order twice (paired ratios vs the in-process
# baseline; absolute times drift between processes).
# Usage: tools/experiments/e45_wg_epilogue.sh OLD_BIN E44_BIN E45_BIN STAMPS_BIN OUT_DIR   (~4 min)
set -u
OLD=${1:?}; E44=${2:?}; E45=${3:?}; ST=${4:?}; O=${5:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
bin() { case $1 in old) echo "$OLD";; e44) echo "$E44";; e45) echo "$E45";; esac; }
step "gpu tests (e45)"
timeout 120 "$E45/projkit_gpu_tests" >"$O/gpu-tests.txt" 2>&1; echo "rc=$?"; tail -2 "$O/gpu-tests.txt"
step "memcheck Dense/WgmmaTmaRed5 + Dense/SplitkStream (e45)"
PROJKIT_MEMCHECK_FILTER='Dense/WgmmaTmaRed5*:Dense/SplitkStream*' timeout 150 tests/run_memcheck.sh "$E45/projkit_gpu_tests" >"$O/memcheck.txt" 2>&1
echo "rc=$?"; tail -3 "$O/memcheck.txt"
step "check qkv,pooler,unpooler M 1..256 (e45, plan L)"
timeout 90 "$E45/projkit" check --families qkv,pooler,unpooler --json "$O/check-dense.json" >"$O/check-dense.txt" 2>&1
echo "rc=$?"; tail -2 "$O/check-dense.txt"
step "check red5 bm256.split2 on unpooler M 193..256 (e45)"
timeout 60 "$E45/projkit" check --families unpooler --m 193..256 --method wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5 \
  --json "$O/check-unp-bm256.json" >"$O/check-unp-bm256.txt" 2>&1; echo "rc=$?"; tail -1 "$O/check-unp-bm256.txt"
step "bench default workload, 400 pairs: old e44 e45 e45 e44 old (x2)"
n=0
for v in old e44 e45 e45 e44 old old e44 e45 e45 e44 old; do
  n=$((n + 1))
  timeout 40 "$(bin $v)/projkit" bench --pairs 400 --json "$O/bench-$(printf %02d $n)-$v.json" >"$O/bench-$(printf %02d $n)-$v.txt" 2>&1 || echo "bench $n $v rc=$?"
done
step "bench dense M 64,96,160,192,224, 200 pairs: old e44 e45 e45 e44 old"
n=0
for v in old e44 e45 e45 e44 old; do
  n=$((n + 1))
  timeout 40 "$(bin $v)/projkit" bench --pairs 200 --families qkv,pooler,unpooler --loads 64,96,160,192,224 \
    --json "$O/benchx-$(printf %02d $n)-$v.json" >"$O/benchx-$(printf %02d $n)-$v.txt" 2>&1 || echo "benchx $n $v rc=$?"
done
step "unpooler M 200,208,224,240,256: red5 bm256.split2, e44 / e45 / e45 / e44, 200 pairs"
n=0
for v in e44 e45 e45 e44; do
  n=$((n + 1))
  timeout 40 "$(bin $v)/projkit" bench --pairs 200 --families unpooler --loads 200,208,224,240,256 \
    --method wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5 --json "$O/unp-$n-$v.json" >"$O/unp-$n-$v.txt" 2>&1 || echo "unp $n rc=$?"
done
step "stamps (P4 cases, e45)"
timeout 100 tools/experiments/p4_straggler_stamps.sh "$ST" "$O/p4" >"$O/p4.txt" 2>&1; echo "rc=$?"
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
    ex = [(r[6] - r[2]) / 1e3 for r in rows]
    print(f'{k}: WG0 park median {st.median(park):.2f} us; WG0 red issue median {st.median(red):.2f} max {max(red):.2f}; exit-end median {st.median(ex):.2f}')
PY
step "summary"
python3 - "$O" <<'PY'
import json, glob, sys, os, statistics as st
O = sys.argv[1]
for pat in ('bench-*.json', 'benchx-*.json', 'unp-*.json'):
    runs = sorted(glob.glob(os.path.join(O, pat)))
    data = {}
    for r in runs:
        try: data[os.path.basename(r)[:-5]] = json.load(open(r))
        except Exception: pass
    if not data: continue
    vs = ['old', 'e44', 'e45']
    print(pat, 'scores:', ' '.join(f"{n.split('-')[-1]}={d['score']:.4f}" for n, d in data.items() if 'score' in d))
    cases = {}
    for n, d in data.items():
        v = n.split('-')[-1]
        for c in d['cases']:
            cases.setdefault((c['family'], c['m']), {}).setdefault(v, []).append((c['ratio'], c['cand_us'], c['method']))
    for (f, m), per in sorted(cases.items()):
        mr = {v: st.mean(x[0] for x in per[v]) for v in vs if v in per}
        mu = {v: st.mean(x[1] for x in per[v]) for v in vs if v in per}
        ref = 'old' if 'old' in mr else 'e44'
        line = f'  {f:9s} M {m:3d} ' + ' '.join(f'{v} {mu[v]:6.2f}us r{mr[v]:.3f}' for v in vs if v in mr)
        line += ' | ' + ' '.join(f'{v}/{ref} {100*(mr[v]/mr[ref]-1):+.1f}%' for v in vs if v in mr and v != ref)
        print(line + '  ' + next(iter(per.values()))[0][2][:44])
PY
cat "$O/p4/phases.txt"
