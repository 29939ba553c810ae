#!/usr/bin/env python3
"""Phase times of red5 light-stamps CSVs (p13_skip_probe.sh's stamps/s-*.csv, one row per CTA and
launch): per (family, config), medians over launches, measured from the launch's earliest thread-0
entry (slot 8), of: the median CTA's first stage (slot 1), the median and the last main-loop end
(slot 2), and the last exit (slot 6), in us. Session 26's calls (call1_s26.sh ran the same lines
inline). Usage: stamps_phases.py STAMPS_DIR"""
import csv, glob, os, statistics as st, sys

res = {}
for f in glob.glob(os.path.join(sys.argv[1], 's-*.csv')):
    fam = os.path.basename(f).split('-')[1]
    cur = None
    for r in csv.reader(open(f)):
        if int(r[1]) == 0:
            cur = []
            res.setdefault((fam, r[0]), []).append(cur)
        cur.append([int(x) for x in r[5:]])
print('light stamps (per launch from the earliest thread-0 entry, medians over launches, us):')
for (fam, cfg), ll in sorted(res.items()):
    ll = [L for L in ll if len(L) >= 8]
    if not ll:
        continue

    def m(f):
        return st.median(f(L, min(c[7] for c in L)) for L in ll)

    print(f'  {fam:8s} {cfg[17:]:48s} n {len(ll):2d}: stage0 med {m(lambda L, e: st.median(c[1] - e for c in L)) / 1e3:.2f} '
          f'end med {m(lambda L, e: st.median(c[2] - e for c in L)) / 1e3:.2f} '
          f'end max {m(lambda L, e: max(c[2] - e for c in L)) / 1e3:.2f} '
          f'exit max {m(lambda L, e: max(c[6] - e for c in L)) / 1e3:.2f}')
