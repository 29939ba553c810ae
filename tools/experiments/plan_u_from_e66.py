#!/usr/bin/env python3
"""Session 19: plan U = plan T2 with the unpooler's row slice on an E66 config where E66's
same-binary A/B says so, by a rule fixed before the run:
  for each sub-range (M 1..2 from the cases M 1, 2; M 3..8 from M 4, 8), take the E66 slab
  config with the highest smaller gain over the sub-range's two cases (gain = mean bench ratio
  of the config / mean bench ratio of the plan's config - 1, both from the same A/B); adopt it
  if that gain is >= +2.0 % and its `projkit check` over M 1..8 passed.
Usage: plan_u_from_e66.py E66_DIR PLAN_IN PLAN_OUT   (prints the decision; PLAN_OUT is written
only when the plan changes; exit 0 either way)"""
import glob, json, os, statistics as st, sys

e66, plan_in, plan_out = sys.argv[1:4]
res = {}
for f in glob.glob(os.path.join(e66, 'b-e66-*.json')):
    c = json.load(open(f))['cases'][0]
    res.setdefault(c['m'], {}).setdefault(c['method'], []).append(c['ratio'])
plan = json.load(open(plan_in))
ranges = plan['families']['unpooler']
def plan_method(m):
    return next(r['method'] for r in ranges if r['m'][0] <= m <= r['m'][1])
def passed(cfg):  # the call script writes `projkit check --method CFG` to check-CFG.txt
    f = os.path.join(e66, f'check-{cfg}.txt')
    lines = open(f).read().strip().splitlines() if os.path.exists(f) else []
    return bool(lines) and lines[-1].strip() == 'check: PASS'
candidates = sorted({k for v in res.values() for k in v if k.endswith('.ki1.wsl1')})
new_ranges = []
for lo, hi, ms in ((1, 2, (1, 2)), (3, 8, (4, 8))):
    best = None
    for cfg in candidates:
        gains = []
        for m in ms:
            ref = res.get(m, {}).get(plan_method(m))
            got = res.get(m, {}).get(cfg)
            if not ref or not got:
                gains = None
                break
            gains.append(st.mean(got) / st.mean(ref) - 1)
        if gains is None:
            continue
        g = min(gains)
        print(f'M {lo}..{hi}: {cfg}: gains ' + ' / '.join(f'{100 * x:+.1f} %' for x in gains) +
              f' (check {"PASS" if passed(cfg) else "not passed"})')
        if passed(cfg) and (best is None or g > best[1]):
            best = (cfg, g)
    if best and best[1] >= 0.02:
        print(f'M {lo}..{hi}: adopt {best[0]} ({100 * best[1]:+.1f} %)')
        new_ranges.append((lo, hi, best[0]))
    else:
        print(f'M {lo}..{hi}: keep the plan ({"no candidate" if not best else f"best {100 * best[1]:+.1f} %"})')
if not new_ranges:
    print('plan unchanged')
    sys.exit(0)
out = []
for r in ranges:  # cut the adopted sub-ranges out of the plan's unpooler ranges
    lo, hi = r['m']
    pieces = [(lo, hi)]
    for a, b, _ in new_ranges:
        nxt = []
        for x, y in pieces:
            if y < a or x > b:
                nxt.append((x, y))
            else:
                if x < a: nxt.append((x, a - 1))
                if y > b: nxt.append((b + 1, y))
        pieces = nxt
    for x, y in pieces:
        q = dict(r)
        q['m'] = [x, y]
        if (x, y) != (lo, hi):  # a cut range: the tune's ratio was measured over the whole one
            q.pop('ratio', None)
        out.append(q)
for a, b, cfg in new_ranges:
    out.append({'m': [a, b], 'method': cfg})
out.sort(key=lambda r: r['m'][0])
plan['families']['unpooler'] = out
json.dump(plan, open(plan_out, 'w'), indent=2)
open(plan_out, 'a').write('\n')
print('plan U written: ' + plan_out)
for r in out:
    print('  unpooler', r['m'], r['method'])
