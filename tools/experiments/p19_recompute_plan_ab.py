#!/usr/bin/env python3
"""P19 (session 19): a plan A/B's score with the candidate times of plan Q set against the
baseline times of plan O's processes, next to the A/B's own scores. plan_ab_q.sh writes
ab-{O1,Q1,Q2,O2}.json per round (O Q Q O); times are the mean of a plan's two processes, loads
weighted as in the bench JSON.
Usage: p19_recompute_plan_ab.py ROUND_DIR [ROUND_DIR ..]"""
import json, math, os, sys

for rd in sys.argv[1:]:
    d = {k: json.load(open(os.path.join(rd, f'ab-{k}.json'))) for k in ('O1', 'Q1', 'Q2', 'O2')}
    loads = {}
    for i, c in enumerate(d['O1']['cases']):
        w = c.get('weight', 1)
        mean = lambda a, b, key: (d[a]['cases'][i][key] + d[b]['cases'][i][key]) / 2
        L = loads.setdefault(c['m'], [0.0, 0.0, 0.0, 0.0])
        L[0] += w * mean('O1', 'O2', 'base_us'); L[1] += w * mean('Q1', 'Q2', 'base_us')
        L[2] += w * mean('O1', 'O2', 'cand_us'); L[3] += w * mean('Q1', 'Q2', 'cand_us')
    g = lambda f: math.prod(f(L) for L in loads.values()) ** (1 / len(loads))
    o, q = g(lambda L: L[0] / L[2]), g(lambda L: L[1] / L[3])
    q_on_o = g(lambda L: L[0] / L[3])
    print(f'{rd}: score O {o:.4f}  Q {q:.4f} ({100 * (q / o - 1):+.2f} %)  Q candidate on O baseline {q_on_o:.4f} '
          f'({100 * (q_on_o / o - 1):+.2f} %)  baseline Q / O {100 * (g(lambda L: L[1] / L[0]) - 1):+.2f} % (geomean over loads)')
