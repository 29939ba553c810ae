#!/usr/bin/env python3
"""Ledger P10b / P11 (session 14, offline): do the split-K GEMM's per-SM stream times follow the
pure stream's per-SM times of P10? Reads committed results only:
  results/h200/session14/c8-p10-sm-placement/p10c-call10.txt  (per-SM pure-stream us, P10)
  results/h200/session14/c5-p9b-ring-thread0/p7/stamps-*.csv.xz (call 5: the five P4 red5 shapes)
  results/h200/session14/c9-p11-red5-work-or-sm/stamps-*.csv.xz (call 11: P11's three shapes)
Per config: rank correlation, SM by SM, of the GEMM's main-loop stream time (end - first stage,
median over launches) with P10's time, and the GEMM's mean time on P10's fast SMs (< 238 us), the
18-SM GPCs' SMs (> 247.7 us) and the rest.
Usage: tools/experiments/p10b_gemm_vs_stream.py [REPO_ROOT]"""
import csv, glob, io, lzma, os, re, statistics as st, sys, collections

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from p4_analyze import spearman  # noqa: E402  (ranks, then Pearson: P4's definition)

root = sys.argv[1] if len(sys.argv) > 1 else '.'
S14 = os.path.join(root, 'results/h200/session14')


txt = open(os.path.join(S14, 'c8-p10-sm-placement/p10c-call10.txt')).read()
p10 = {int(a): float(b) for a, b in re.findall(r'(\d+): (\d+\.\d+)', txt.split('per SM (id: mean us):')[1])}


def per_sm(files, key):
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for f in files:
        for r in csv.reader(io.StringIO(lzma.open(f, 'rt').read())):
            if len(r) < 12:
                continue
            sm, s1, s2 = int(r[4]), int(r[6]), int(r[7])
            if s1 and s2:
                d[key(f, r)][sm].append((s2 - s1) / 1e3)
    return {k: {sm: st.median(v) for sm, v in by.items()} for k, by in d.items()}


groups = {}
groups.update(per_sm(sorted(glob.glob(os.path.join(S14, 'c5-p9b-ring-thread0/p7/stamps-*.csv.xz'))),
                     lambda f, r: 'call 5 ' + r[0]))
groups.update(per_sm(sorted(glob.glob(os.path.join(S14, 'c9-p11-red5-work-or-sm/stamps-*.csv.xz'))),
                     lambda f, r: 'call 11 ' + '-'.join(os.path.basename(f).split('-')[1:3])))
for name, d in sorted(groups.items()):
    sms = [s for s in d if s in p10]
    fast = [d[s] for s in sms if p10[s] < 238]
    slow = [d[s] for s in sms if p10[s] > 247.7]
    mid = [d[s] for s in sms if 238 <= p10[s] <= 247.7]
    print(f'{name[:70]:70s} n={len(sms):3d} vs P10 {spearman([d[s] for s in sms], [p10[s] for s in sms]):+.2f}; '
          f'GEMM us: P10-fast {st.mean(fast):.2f} mid {st.mean(mid):.2f} 18-SM GPCs {st.mean(slow):.2f}')
# The same shape on two calls: pooler M 128 bm192.split4, call 5 against call 11, SM by SM.
a = groups.get('call 5 wgmma_tma.bn128.bm192.split4.mc1.stages5.xfit1.red5', {})
b = groups.get('call 11 pooler-128', {})
sms = [s for s in a if s in b]
if sms:
    print(f'pooler M 128 per SM, call 5 against call 11: {spearman([a[s] for s in sms], [b[s] for s in sms]):+.2f} (n={len(sms)})')
