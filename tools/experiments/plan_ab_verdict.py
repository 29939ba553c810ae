#!/usr/bin/env python3
"""The ship verdict of plan A/B rounds (session 21: calls 2, 3 and 4). Each DIR is one round of
tools/experiments/plan_ab_q.sh (ab-O1/Q1/Q2/O2.json: the plan in force O, the candidate Q, O Q Q O).
Per round: the score change sqrt(Q1 Q2) / sqrt(O1 O2) - 1, and for every case whose method
differs between O and Q the paired-ratio gain mean(Q1, Q2) / mean(O1, O2) - 1.
Ship (prints 1, else 0) when
- all DIRs were readable, and --rounds (if given) of them;
- the mean score change over the rounds is >= --score-min;
- every changed case's mean gain is >= its threshold: each --need FAMILY:M:MIN names one (and then the
  changed cases must be exactly the named ones), else --case-min.
The rounds and the reasoning go to stderr.
Usage: plan_ab_verdict.py [--rounds N] [--score-min X] [--case-min X] [--need FAM:M:MIN]... DIR .."""
import argparse, json, math, os, sys

ap = argparse.ArgumentParser()
ap.add_argument('dirs', nargs='+')
ap.add_argument('--rounds', type=int, default=None)
ap.add_argument('--score-min', type=float, default=0.0)
ap.add_argument('--case-min', type=float, default=0.0)
ap.add_argument('--need', action='append', default=[])
a = ap.parse_args()

gains, case, read = [], {}, 0
for d in a.dirs:
    try:
        j = {r: json.load(open(os.path.join(d, f'ab-{r}.json'))) for r in ('O1', 'Q1', 'Q2', 'O2')}
    except Exception as e:
        print(f'{d}: {e}', file=sys.stderr)
        continue
    read += 1
    so = math.sqrt(j['O1']['score'] * j['O2']['score'])
    sq = math.sqrt(j['Q1']['score'] * j['Q2']['score'])
    gains.append(sq / so - 1)
    for i, c in enumerate(j['O1']['cases']):
        if c['method'] != j['Q1']['cases'][i]['method']:
            ro = (j['O1']['cases'][i]['ratio'] + j['O2']['cases'][i]['ratio']) / 2
            rq = (j['Q1']['cases'][i]['ratio'] + j['Q2']['cases'][i]['ratio']) / 2
            case.setdefault((c['family'], c['m']), []).append(rq / ro - 1)
mean = lambda v: sum(v) / len(v)
need = {}
for n in a.need:
    fam, m, t = n.split(':')
    need[(fam, int(m))] = float(t)
ok = read == len(a.dirs) and (a.rounds is None or read == a.rounds) and bool(gains)
ok = ok and mean(gains) >= a.score_min
if need:
    ok = ok and set(case) == set(need)
ok = ok and all(mean(v) >= need.get(k, a.case_min) for k, v in case.items())
print('rounds %s (mean %+.2f%%); changed cases %s -> %s' % (
    ' '.join('%+.2f%%' % (100 * g) for g in gains), 100 * mean(gains) if gains else float('nan'),
    ' '.join('%s M%d %s (mean %+.1f%%)' % (k[0], k[1], '/'.join('%+.1f' % (100 * x) for x in v), 100 * mean(v))
             for k, v in sorted(case.items())) or 'none', 'SHIP' if ok else 'KEEP'), file=sys.stderr)
print(1 if ok else 0)
