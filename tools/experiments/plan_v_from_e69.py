#!/usr/bin/env python3
"""Session 20: plan V = plan T2 with qkv / pooler M 1 moved to a gemv_stream rows2.warps8 variant
(E67 eq1, E69 mb4, eq1.mb4) where call 3's same-binary A/B says so, by a rule fixed before the run:
  per family, the variant with the highest gain whose `projkit check` over M 1..8 passed, where
  gain = min(mean paired ratio of the variant / that of rows2.warps8, mean time of rows2.warps8 /
  that of the variant) - 1 over the two runs of each; adopted if the gain is >= +1.0 %.
  (gemv_stream holds no weight copy, so ratio and time tell the same story: P19 does not apply.)
Usage: plan_v_from_e69.py E69_DIR PLAN_IN PLAN_OUT   (prints the decision; PLAN_OUT is written
only when the plan changes; exit 0 either way)"""
import json, os, sys

from plan_rule import check_passed, gain, load_ab, means, write_plan

e69, plan_in, plan_out = sys.argv[1:4]
BASE = 'gemv_stream.rows2.warps8'
res = {fam: v for (fam, m), v in load_ab(e69, 'e69').items() if m == 1}


def passed(cfg):  # the call script writes `projkit check --method CFG` to check-CFG.txt
    return check_passed(os.path.join(e69, f'check-{cfg}.txt'))


plan = json.load(open(plan_in))
changed = False
for fam in ('qkv', 'pooler'):
    v = res.get(fam, {})
    if BASE not in v:
        print(f'{fam} M 1: no data for {BASE}; keep the plan')
        continue
    r0, t0 = means(v[BASE])
    best = None
    for cfg, xs in sorted(v.items()):
        if cfg == BASE:
            continue
        r, t = means(xs)
        g = gain(v[BASE], xs)
        ok = passed(cfg) or cfg == BASE + '.eq1'  # eq1 is a grid choice of the checked kernel (E67 call 1 checks)
        print(f'{fam} M 1: {cfg}: ratio {100 * (r / r0 - 1):+.1f} %, time {t:.2f} vs {t0:.2f} us '
              f'(gain {100 * g:+.1f} %, check {"PASS" if ok else "not passed"})')
        if ok and (best is None or g > best[1]):
            best = (cfg, g)
    ranges = plan['families'][fam]
    if best and best[1] >= 0.01:
        r1 = next(r for r in ranges if r['m'] == [1, 1])
        print(f'{fam} M 1: adopt {best[0]} ({100 * best[1]:+.1f} %; was {r1["method"]})')
        r1['method'] = best[0]
        r1.pop('ratio', None)
        changed = True
    else:
        print(f'{fam} M 1: keep the plan ({"no candidate" if not best else f"best {100 * best[1]:+.1f} %"})')
if changed:
    write_plan(plan, plan_out)
    print(f'plan V written to {plan_out}')
else:
    print('plan unchanged')
