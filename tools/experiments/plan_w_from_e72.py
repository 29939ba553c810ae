#!/usr/bin/env python3
"""Session 21: plan W = plan V with ranges moved to kperm_splitk_zw (E72) or to
router_hilo_stream.kw8.wn2.zw1 (E73) where call 2's same-binary A/B says so, by a rule fixed
before the run. gain = min(mean paired ratio of the candidate / that of the plan's config, mean
time of the plan's config / that of the candidate) - 1 over the two runs of each (plan_rule.gain);
a candidate needs its `projkit check` PASS (check-*-CFG.txt in the E72 directory).
- unpooler slice: the kperm_splitk_zw config with the highest min(gain M 3, gain M 8) takes
  M 3..8 if gain M 8 >= +3 %, gain M 3 >= +1 % and (where measured) gain M 5 >= 0; it also takes
  M 2 if its gain there (against gemv_stream) is >= +2 %.
- pooler: the best kperm_splitk_zw config at M 2 takes M 2..5 (kperm's range) if its gain is
  >= +3 %; it takes M 2..8 if it also gains >= +3 % at M 8 (against the slab kernel).
- qkv: the best at M 8 takes M 2..8 if its gain is >= +3 %.
- o: kperm_splitk_zw.wr8.wk1.u8 takes M 1..16 (splitk_mma_l2.rows64.split1's range) if its gain
  is >= +3 % at M 8 and >= 0 at M 1 and M 16.
- router (E73): kw8.wn2.zw1 takes M 25..32 if gain M 32 >= +2 % and gain M 16 >= 0; M 9..32 if
  also gain M 16 >= +2 % and gain M 8 >= 0; M 4..32 if also gain M 8 >= +2 %.
Usage: plan_w_from_e72.py E72_DIR PLAN_IN PLAN_OUT   (prints the decision; PLAN_OUT is written only
when the plan changes)
(set_range and pct moved into plan_rule.py after the call, in the session's review; on the
call's files the rule writes the same plan and prints the same lines.)
"""
import json, os, sys

from plan_rule import check_passed, gain, load_ab, pct, set_range, write_plan

e72, plan_in, plan_out = sys.argv[1:4]
ab = load_ab(e72, 'e72')
ab.update(load_ab(e72, 'e73'))
plan = json.load(open(plan_in))


def plan_method(fam, m):
    return next(r['method'] for r in plan['families'][fam] if r['m'][0] <= m <= r['m'][1])


def g(fam, m, cfg):
    """gain of cfg against the plan's config at (fam, m); None if either was not measured."""
    v = ab.get((fam, m), {})
    base = plan_method(fam, m)
    if base not in v or cfg not in v:
        return None
    return gain(v[base], v[cfg])


def checked(cfg, fams):
    return check_passed(os.path.join(e72, f'check-{fams}-{cfg}.txt'))






zw = sorted({c for v in ab.values() for c in v if c.startswith('kperm_splitk_zw.')})
changed = False
# unpooler slice
best = None
for c in zw:
    g3, g5, g8, g2 = (g('unpooler', m, c) for m in (3, 5, 8, 2))
    ok = checked(c, 'unpooler')
    print(f'unpooler {c}: M 2 {pct(g2)}, M 3 {pct(g3)}, M 5 {pct(g5)}, M 8 {pct(g8)}, check {"PASS" if ok else "no"}')
    if ok and g3 is not None and g8 is not None and (best is None or min(g3, g8) > best[1]):
        best = (c, min(g3, g8), g2, g3, g5, g8)
if best and best[5] >= 0.03 and best[3] >= 0.01 and (best[4] is None or best[4] >= 0):
    print(f'unpooler: adopt {best[0]}')
    set_range(plan, 'unpooler', 3, 8, best[0])
    if best[2] is not None and best[2] >= 0.02:
        set_range(plan, 'unpooler', 2, 2, best[0])
    changed = True
else:
    print('unpooler: keep the plan')
# pooler and qkv (configs checked on qkv,pooler)
for fam, m_lo, m_pt, rng, far in (('pooler', 2, 2, (2, 5), 8), ('qkv', 8, 8, (2, 8), None)):
    cands = [(g(fam, m_pt, c), c) for c in zw if checked(c, 'qkv-pooler') and g(fam, m_pt, c) is not None]
    for x, c in cands:
        print(f'{fam} {c}: M {m_pt} {pct(x)}' + (f', M {far} {pct(g(fam, far, c))}' if far else ''))
    if cands and max(cands)[0] >= 0.03:
        x, c = max(cands)
        hi = 8 if far and (g(fam, far, c) or -1) >= 0.03 else rng[1]
        print(f'{fam}: adopt {c}')
        set_range(plan, fam, rng[0], hi, c)
        changed = True
    else:
        print(f'{fam}: keep the plan')
# o (the 64-row tile)
E8 = 'kperm_splitk_zw.wr8.wk1.u8'
o1, o8, o16 = (g('o', m, E8) for m in (1, 8, 16))
oko = check_passed(os.path.join(e72, f'check-o-{E8}.txt'))
print(f'o {E8}: M 1 {pct(o1)}, M 8 {pct(o8)}, M 16 {pct(o16)}, check {"PASS" if oko else "no"}')
if oko and None not in (o1, o8, o16) and o8 >= 0.03 and o1 >= 0 and o16 >= 0:
    print('o: adopt')
    set_range(plan, 'o', 1, 16, E8)
    changed = True
else:
    print('o: keep the plan')
# router (E73)
R8 = 'router_hilo_stream.kw8.wn2.zw1'
g8, g16, g32 = (g('router', m, R8) for m in (8, 16, 32))
okr = check_passed(os.path.join(e72, f'check-router-{R8}.txt'))
print(f'router {R8}: M 8 {pct(g8)}, M 16 {pct(g16)}, M 32 {pct(g32)}, check {"PASS" if okr else "no"}')
if okr and g32 is not None and g16 is not None and g32 >= 0.02 and g16 >= 0:
    lo = 25
    if g16 >= 0.02 and g8 is not None and g8 >= 0:
        lo = 4 if g8 >= 0.02 else 9
    print('router: adopt')
    set_range(plan, 'router', lo, 32, R8)
    changed = True
else:
    print('router: keep the plan')
if changed:
    write_plan(plan, plan_out)
    print(f'plan W written to {plan_out}')
else:
    print('plan unchanged')
