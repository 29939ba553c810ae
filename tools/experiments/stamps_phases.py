#!/usr/bin/env python3
"""Phase times of red5 light-stamps CSVs (p13_skip_probe.sh's stamps/s-*.csv, parsed by
p4_analyze.launches): per (family, config), medians over launches, measured from the launch's
earliest thread-0 entry (slot 8), of: the median CTA's first stage, the median and the last
main-loop end, and the last exit, in us. Session 26's calls (call1_s26.sh ran the same lines
inline). Usage: stamps_phases.py STAMPS_DIR"""
import glob, os, statistics as st, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from p4_analyze import launches  # noqa: E402

res = {}
for f in glob.glob(os.path.join(sys.argv[1], 's-*.csv')):
    fam = os.path.basename(f).split('-')[1]
    for cfg, ll in launches(f).items():
        res.setdefault((fam, cfg), []).extend(L for L in ll if len(L) >= 8)
print('light stamps (per launch from the earliest thread-0 entry, medians over launches, us):')
for (fam, cfg), ll in sorted(res.items()):
    if not ll:
        continue

    def m(f):
        return st.median(f(L, min(c['entry0'] for c in L)) for L in ll)

    print(f'  {fam:8s} {cfg[17:]:48s} n {len(ll):2d}: stage0 med {m(lambda L, e: st.median(c["first"] - e for c in L)):.2f} '
          f'end med {m(lambda L, e: st.median(c["end"] - e for c in L)):.2f} '
          f'end max {m(lambda L, e: max(c["end"] - e for c in L)):.2f} '
          f'exit max {m(lambda L, e: max(c["exit"] - e for c in L)):.2f}')
