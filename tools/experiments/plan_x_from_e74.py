#!/usr/bin/env python3
"""Session 21: plan X = plan W with ranges moved by call 4's same-binary A/Bs, by rules fixed before
the run. gain = min(ratio gain, time gain) - 1 over the two runs of each config (plan_rule.gain),
against plan W's config at that M.
- E74: kperm_splitk_zw.wr8.wk1.u8 takes the unpooler's M 3..8 if its gain is >= +1 % at M 8 and
  >= 0 at M 3, 4 and 6. (Its check over the slice's M 1..8 passed in call 2.)
- E75: router_hilo_stream.kw8.wn2.zw1 (plan W's at M 25..32) extends downwards: walking
  M = 24, 20, 16, 12, 8 while its gain against kw4.wn2.zw1 is >= +1 %, the last M passed sets the
  new lower edge (24 -> 21, 20 -> 17, 16 -> 13, 12 -> 9, 8 -> 4). (Its check over M 1..256 passed
  in call 2.)
Usage: plan_x_from_e74.py E74_DIR PLAN_IN PLAN_OUT   (prints the decision; PLAN_OUT is written only
when the plan changes)
(set_range and pct moved into plan_rule.py after the call, in the session's review; on the
call's files the rule writes the same plan and prints the same lines.)
"""
import json, sys

from plan_rule import gain, load_ab, pct, set_range, write_plan

e74, plan_in, plan_out = sys.argv[1:4]
ab = load_ab(e74, 'e74')
ab.update(load_ab(e74, 'e75'))
plan = json.load(open(plan_in))


def g(fam, m, base, cfg):
    v = ab.get((fam, m), {})
    return gain(v[base], v[cfg]) if base in v and cfg in v else None




changed = False
U4, U8 = 'kperm_splitk_zw.wr4.wk2.u8', 'kperm_splitk_zw.wr8.wk1.u8'
gs = {m: g('unpooler', m, U4, U8) for m in (3, 4, 6, 8)}
print('E74 unpooler ' + U8 + ': ' + ', '.join(f'M {m} {pct(x)}' for m, x in gs.items()))
if None not in gs.values() and gs[8] >= 0.01 and min(gs[3], gs[4], gs[6]) >= 0:
    print('E74: adopt')
    set_range(plan, 'unpooler', 3, 8, U8)
    changed = True
else:
    print('E74: keep plan W')
R4, R8 = 'router_hilo_stream.kw4.wn2.zw1', 'router_hilo_stream.kw8.wn2.zw1'
edge = {24: 21, 20: 17, 16: 13, 12: 9, 8: 4}
lo = None
for m in (24, 20, 16, 12, 8):
    x = g('router', m, R4, R8)
    print(f'E75 router {R8}: M {m} {pct(x)}')
    if x is None or x < 0.01:
        break
    lo = edge[m]
if lo is not None:
    print('E75: extend')
    set_range(plan, 'router', lo, 32, R8)
    changed = True
else:
    print('E75: keep plan W')
if changed:
    write_plan(plan, plan_out)
    print(f'plan X written to {plan_out}')
else:
    print('plan unchanged')
