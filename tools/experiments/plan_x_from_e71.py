#!/usr/bin/env python3
"""Session 20: plan X = plan V with M 1..4 sub-ranges of the dense families moved to
gemv_bulk_ring.stages8 where call 5's same-binary A/B says so, by a rule fixed before the run:
  per family and sub-range (M 1 from the case M 1; M 2..4 from the cases M 2 and 4 where both
  were measured), gain = min over the cases of min(mean paired ratio bulk / plan config, mean time
  plan config / bulk) - 1; adopted if the gain is >= +1.0 % and the check over M 1..4 passed.
  A sub-range is carved out of the plan range that holds it (the rest keeps its method).
Usage: plan_x_from_e71.py E71_DIR PLAN_IN PLAN_OUT   (prints the decision; PLAN_OUT is written
only when the plan changes; exit 0 either way)"""
import json, os, sys

from plan_rule import check_passed, gain, load_ab, means, write_plan

e71, plan_in, plan_out = sys.argv[1:4]
BULK = 'gemv_bulk_ring.stages8'
res = load_ab(e71, 'e71')
passed = check_passed(os.path.join(e71, f'check-{BULK}.txt'))
print(f'check {BULK} over M 1..4: {"PASS" if passed else "not passed"}')
plan = json.load(open(plan_in))
changed = False
for fam, ranges in plan['families'].items():
    for lo, hi, ms in ((1, 1, (1,)), (2, 4, (2, 4))):
        gains = []
        for m in ms:
            v = res.get((fam, m), {})
            base = next((k for k in v if k != BULK), None)
            if base is None or BULK not in v:
                gains = None
                break
            gains.append((m, base, gain(v[base], v[BULK]), means(v[base])[1], means(v[BULK])[1]))
        if not gains:
            continue
        g = min(x[2] for x in gains)
        print(f'{fam} M {lo}..{hi}: ' + ', '.join(f'M {m} {base[-34:]} {tb:.2f} -> {tq:.2f} us ({100 * x:+.1f} %)'
                                                  for m, base, x, tb, tq in gains))
        if not (passed and g >= 0.01):
            continue
        print(f'  adopt {BULK} at M {lo}..{hi}')
        out = []
        for r in ranges:
            a, b = r['m']
            if b < lo or a > hi:
                out.append(r)
                continue
            if a < lo:
                out.append({**r, 'm': [a, lo - 1]})
            if b > hi:
                out.append({**r, 'm': [hi + 1, b]})
        out.append({'m': [lo, hi], 'method': BULK})
        ranges[:] = sorted(out, key=lambda r: r['m'][0])
        changed = True
if changed:
    write_plan(plan, plan_out)
    print(f'plan X written to {plan_out}')
else:
    print('plan unchanged')
