#!/usr/bin/env python3
"""Session 20: plan W = plan V with a plan range moved to its E70 deeper-ring twin (one more smem
stage) where call 4's same-binary A/B says so, by a rule fixed before the run:
  for each plan range whose method has a tested twin, over the A/B cases inside the range:
  gain = min over the cases of min(mean paired ratio twin / base, mean time base / twin) - 1
  (both configs hold the same weight copies, so P19's baseline shift is the same on both sides);
  adopted if the gain is >= +1.5 % and the twin's `projkit check` over the range passed.
Usage: plan_w_from_e70.py E70_DIR PLAN_IN PLAN_OUT   (prints the decision; PLAN_OUT is written
only when the plan changes; exit 0 either way)"""
import json, os, sys

from plan_rule import check_passed, gain, load_ab, means, write_plan

e70, plan_in, plan_out = sys.argv[1:4]
res = load_ab(e70, 'e70')


def twin_of(method):
    for a, b in (('.bm64.', ('stages8', 'stages9')), ('.bm128.', ('stages6', 'stages7'))):
        if a in method and b[0] in method:
            return method.replace(b[0], b[1])
    return None


def passed(fam, cfg):
    return check_passed(os.path.join(e70, f'check-{fam}-{cfg}.txt'))


plan = json.load(open(plan_in))
changed = False
for fam, ranges in plan['families'].items():
    for r in ranges:
        twin = twin_of(r['method'])
        if not twin:
            continue
        gains = []
        for (f, m), v in sorted(res.items()):
            if f != fam or not (r['m'][0] <= m <= r['m'][1]) or r['method'] not in v or twin not in v:
                continue
            gains.append((m, gain(v[r['method']], v[twin]), means(v[r['method']])[1], means(v[twin])[1]))
        if not gains:
            continue
        g = min(x[1] for x in gains)
        ok = passed(fam, twin)
        desc = ', '.join(f'M {m} {tb:.2f} -> {tt:.2f} us ({100 * x:+.1f} %)' for m, x, tb, tt in gains)
        print(f'{fam} M {r["m"][0]}..{r["m"][1]}: {desc}; check {"PASS" if ok else "not passed"}')
        if ok and g >= 0.015:
            print(f'  adopt {twin}')
            r['method'] = twin
            r.pop('ratio', None)
            changed = True
if changed:
    write_plan(plan, plan_out)
    print(f'plan W written to {plan_out}')
else:
    print('plan unchanged')
