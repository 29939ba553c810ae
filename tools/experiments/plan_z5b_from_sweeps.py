#!/usr/bin/env python3
"""Session 26, after call 3: plan Z5b = plan Z5 (E87's wmc1 ranges, shipped in call 3) with the low
edge of each bm64 wmc1 range moved up past the last M at which plan Z5's 1..256 sweep (call 3) reads
a lower paired ratio than run Z4's sweep (results/h200/bench-sweep.json.xz, session 24); the M below
go back to plan Z4's method. Why: the rule of call 3 measured M 96 / 128 only, and at M just above 64
the pair's second token tile is nearly empty (its x boxes lie mostly outside x): the sweep read
unpooler 0.917-0.961 at M 65..70 and o 0.964-0.970 at M 65..67. Fixed before call 4.
Usage: plan_z5b_from_sweeps.py SWEEP_Z5 SWEEP_Z4(.xz) PLAN_Z5 PLAN_Z4 PLAN_OUT"""
import json, lzma, sys

from plan_rule import set_range, write_plan

RANGES = [('qkv', 65, 128), ('o', 65, 128), ('unpooler', 65, 117)]  # the bm64 wmc1 ranges of plan Z5


def ratios(path):
    d = json.load(lzma.open(path) if path.endswith('.xz') else open(path))
    return {(c['family'], c['m']): c['ratio'] for c in d['cases']}


def method_at(plan, fam, m):
    for r in plan['families'][fam]:
        if r['m'][0] <= m <= r['m'][1]:
            return r['method']
    return 'baseline'


if __name__ == '__main__':
    new, old = ratios(sys.argv[1]), ratios(sys.argv[2])
    z5, z4 = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
    for fam, lo, hi in RANGES:
        losing = [m for m in range(lo, hi + 1) if new[(fam, m)] < old[(fam, m)]]
        print(f'{fam} M {lo}..{hi}: Z5 below Z4 at M {losing}')
        if not losing:
            continue
        edge = max(losing)
        inc = method_at(z4, fam, lo)
        assert all(method_at(z4, fam, m) == inc for m in range(lo, edge + 1)), 'one Z4 method below the edge'
        if inc == 'baseline':  # plan files hold no baseline ranges: drop the M from the wmc1 range
            z5['families'][fam] = [r for r in z5['families'][fam] if r['m'] != [lo, hi]] + \
                                  [{'m': [edge + 1, hi], 'method': method_at(z5, fam, hi)}]
            z5['families'][fam].sort(key=lambda r: r['m'][0])
            print(f'  {fam} M {lo}..{edge} -> baseline')
        else:
            set_range(z5, fam, lo, edge, inc)
    write_plan(z5, sys.argv[5])
    print(f'plan Z5b written to {sys.argv[5]}')
