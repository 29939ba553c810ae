#!/usr/bin/env python3
"""Ledger P4: reads OUT_DIR/stamps-{1,2}.csv from p4_straggler_stamps.sh and prints, per config and
grid size, where the stragglers sit. A CSV holds every launch of a bench process (warm-up and
timed launches alike), appended in CTA order, so a launch starts at each row with cta == 0 and
one config name can carry two grids (pooler and unpooler share a method name).
Per config and grid:
- main-loop end min / median / max of the first launches;
- mean pairwise Spearman rank correlation of the main-loop end between launches, by CTA (same
  tile and K split) and by %smid;
- the share of the end's variance explained by the N tile, the K split and the SM;
- by K split: mean start, first fill issued (slot 4 since session 12: P5, E47), first stage, end, exit - end;
- the stream time (end - first stage) by SM, fastest and slowest twelve.
(Session 10's first version pooled all launches of a process as one; session 11 split them.)"""
import csv
import statistics as st
import sys
from collections import defaultdict


def launches(path):
    out = defaultdict(list)  # config -> [launch: [cta rows]]
    cur = {}
    try:
        with open(path) as f:
            for r in csv.reader(f):
                cfg, cta = r[0], int(r[1])
                d = dict(cta=cta, ks=int(r[2]), tile=int(r[3]), smid=int(r[4]), start=int(r[5]) / 1e3,
                         first=int(r[6]) / 1e3, end=int(r[7]) / 1e3, issue=int(r[9]) / 1e3, exit=int(r[11]) / 1e3)
                if len(r) > 12:  # red5's thread-0 entry (slot 8, P7), in files since session 13
                    d['entry0'] = int(r[12]) / 1e3
                if cta == 0 or cfg not in cur:
                    cur[cfg] = []
                    out[cfg].append(cur[cfg])
                cur[cfg].append(d)
    except FileNotFoundError:
        pass
    return out


def phase_medians(ll, min_ctas=8):
    """Over the launches ll (lists of CTA rows, as launches() gives them) that have at least
    min_ctas CTAs: the medians of the median CTA's first stage, of the median and of the last
    main-loop end, and of the last exit (us); None when no launch qualifies. (P12, P14.)"""
    ll = [L for L in ll if len(L) >= min_ctas]
    if not ll:
        return None
    return (st.median(st.median(c['first'] for c in L) for L in ll), st.median(st.median(c['end'] for c in L) for L in ll),
            st.median(max(c['end'] for c in L) for L in ll), st.median(max(c['exit'] for c in L) for L in ll))


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0] * len(v)
    for k, i in enumerate(order):
        r[i] = k
    return r


def spearman(a, b):
    return st.correlation(ranks(a), ranks(b)) if len(a) >= 3 else float('nan')


def pairwise(ll, key):
    out = []
    for i in range(len(ll)):
        for j in range(i + 1, len(ll)):
            a = {c[key]: c['end'] for c in ll[i]}
            b = {c[key]: c['end'] for c in ll[j]}
            common = sorted(set(a) & set(b))
            if len(common) >= 3:
                out.append(spearman([a[x] for x in common], [b[x] for x in common]))
    return st.mean(out) if out else float('nan')


def main(out):
    runs = [launches(f'{out}/stamps-1.csv'), launches(f'{out}/stamps-2.csv')]
    for cfg in runs[0]:
        by_grid = defaultdict(list)
        for launch in runs[0][cfg] + runs[1].get(cfg, []):
            by_grid[len(launch)].append(launch)
        for n, ll in by_grid.items():
            print(f'{cfg} grid {n}: {len(ll)} launches')
            for launch in ll[:3]:
                e = sorted(c['end'] for c in launch)
                print('   main-loop end min / median / max %.2f / %.2f / %.2f us, last exit %.2f' %
                      (e[0], st.median(e), e[-1], max(c['exit'] for c in launch)))
            print('   mean pairwise Spearman of the end between launches: by CTA %.2f, by SM %.2f' %
                  (pairwise(ll, 'cta'), pairwise(ll, 'smid')))
            everything = [c for launch in ll for c in launch]
            total = st.pvariance([c['end'] for c in everything])
            for key in ('tile', 'ks', 'smid'):
                g = defaultdict(list)
                for c in everything:
                    g[c[key]].append(c['end'])
                means = {k: st.mean(v) for k, v in g.items()}
                print(f'   share of the end variance explained by {key}: '
                      f'{st.pvariance([means[c[key]] for c in everything]) / total:.2f}')
            g = defaultdict(list)
            for c in everything:
                g[c['ks']].append(c)
            for ks, cs in sorted(g.items()):
                m = lambda f: st.mean(f(c) for c in cs)
                print('   ks%d: start %.2f issue %.2f first %.2f end %.2f exit-end %.2f' %
                      (ks, m(lambda c: c['start']), m(lambda c: c['issue']), m(lambda c: c['first']),
                       m(lambda c: c['end']), m(lambda c: c['exit'] - c['end'])))
            g = defaultdict(list)
            for c in everything:
                g[c['smid']].append(c['end'] - c['first'])
            ms = sorted((st.mean(v), k) for k, v in g.items())
            print('   stream time (end - first) by SM, fastest: ' + ' '.join('%d:%.2f' % (k, v) for v, k in ms[:12]))
            print('   slowest: ' + ' '.join('%d:%.2f' % (k, v) for v, k in ms[-12:]))


if __name__ == '__main__':
    main(sys.argv[1])
