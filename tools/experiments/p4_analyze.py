#!/usr/bin/env python3
"""Ledger P4: reads OUT_DIR/stamps-{1,2}.csv from p4_straggler_stamps.sh and prints, per case,
where the stragglers sit: the spread of the main-loop ends, whether the last CTAs started late or
streamed slowly (first half vs second half of their k-blocks), mean end by K split and by N tile,
and whether what was slow in run 1 is slow again in run 2 (rank correlation of the main-loop end
by %smid, and by CTA = the same tile and K split)."""
import csv
import statistics
import sys
from collections import defaultdict


def load(path):
    rows = defaultdict(list)
    try:
        with open(path) as f:
            for r in csv.reader(f):
                cfg, cta, ks, tile, smid = r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4])
                start, first, end, _parked, half, _reduced, exit_ = (int(x) / 1000.0 for x in r[5:12])
                rows[cfg].append(dict(cta=cta, ks=ks, tile=tile, smid=smid, start=start, first=first, end=end,
                                      half=half, exit=exit_))
    except FileNotFoundError:
        pass
    return rows


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0] * len(values)
    for k, i in enumerate(order):
        r[i] = k
    return r


def spearman(a, b):
    return statistics.correlation(ranks(a), ranks(b)) if len(a) >= 3 else float('nan')


def describe(group):
    return ('start %.2f first %.2f half-first %.2f end-half %.2f' %
            (statistics.mean(c['start'] for c in group), statistics.mean(c['first'] for c in group),
             statistics.mean(c['half'] - c['first'] for c in group),
             statistics.mean(c['end'] - c['half'] for c in group)))


def mean_by(ctas, key):
    groups = defaultdict(list)
    for c in ctas:
        groups[c[key]].append(c['end'])
    return {k: statistics.mean(v) for k, v in groups.items()}


def main(out):
    runs = [load(f'{out}/stamps-1.csv'), load(f'{out}/stamps-2.csv')]
    for cfg in runs[0]:
        for k, run in enumerate(runs):
            ctas = run.get(cfg, [])
            if not ctas:
                continue
            ends = sorted(c['end'] for c in ctas)
            lo, hi = ends[int(0.1 * (len(ends) - 1))], ends[int(0.9 * (len(ends) - 1))]
            print(f'{cfg} run {k + 1}: {len(ctas)} CTAs, main-loop end min / median / max '
                  f'{ends[0]:.2f} / {statistics.median(ends):.2f} / {ends[-1]:.2f} us')
            print('   slowest 10 %: ' + describe([c for c in ctas if c['end'] >= hi]))
            print('   fastest 10 %: ' + describe([c for c in ctas if c['end'] <= lo]))
            print('   mean end by K split: ' + ' '.join(f'{ks}:{v:.2f}' for ks, v in sorted(mean_by(ctas, 'ks').items())))
            tiles = sorted(mean_by(ctas, 'tile').items(), key=lambda kv: -kv[1])
            print('   slowest N tiles (tile:mean end): ' + ' '.join(f'{t}:{v:.2f}' for t, v in tiles[:5]))
            print('   slowest SMs (smid:end): ' +
                  ' '.join(f"{c['smid']}:{c['end']:.2f}" for c in sorted(ctas, key=lambda c: -c['end'])[:8]))
        for key, what in (('smid', 'SMs'), ('cta', 'CTAs (same tile and K split)')):
            a = {c[key]: c['end'] for c in runs[0].get(cfg, [])}
            b = {c[key]: c['end'] for c in runs[1].get(cfg, [])}
            common = sorted(set(a) & set(b))
            print(f'   run 1 vs run 2, {len(common)} common {what}: Spearman rank correlation of the main-loop '
                  f'end {spearman([a[s] for s in common], [b[s] for s in common]):.2f}')


if __name__ == '__main__':
    main(sys.argv[1])
