#!/usr/bin/env python3
"""Session 28, call 2's rule (fixed before the call). Base: plan Z7, call 1's rule over E90's A/B
(results/h200/session28/c1-gpu-suite-e90/plan-z7.json; plan_z7_from_e90.py). Two listed lp1 configs
that call 1 did not time where they might win (ab_configs.sh tag e90b, 200 pairs, the plan's method
first), under session 23's rule (plan_rule.move_ranges):
- pooler M 1 on gemv_stream.rows2.warps8.eq1.mb4.lp1 (call 1's rows2.warps8.lp1 lost 1.0 %; lp1's 60
  registers put 4 blocks on an SM instead of 3, so it timed a residency change too; mb4 fixes 4);
- the unpooler slice at M 3..8 (kperm_splitk_zw.wr4.wk2.u8) on gemv_stream.rows4.warps8.lp1, which
  gained 2-6 % at M 1..2 (measured 3, 4, 5, 8).
Writes plan Z7b = Z7 plus the moves (Z7 itself if none), which the ship step A/Bs against plan Z6c.
Usage: plan_z7b_from_e90b.py AB_DIR PLAN_IN PLAN_OUT   (PLAN_IN, plans/h200.json, is not read)"""
import json, os, sys

from plan_rule import load_ab, move_ranges, write_plan

G = 'gemv_stream'
RANGES = [
    ('pooler', f'{G}.rows2.warps8', [f'{G}.rows2.warps8.eq1.mb4.lp1'], (1, 1), (1,)),
    ('unpooler', 'kperm_splitk_zw.wr4.wk2.u8', [f'{G}.rows4.warps8.lp1'], (3, 8), (3, 4, 5, 8)),
]
Z7 = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../results/h200/session28/c1-gpu-suite-e90/plan-z7.json')

if __name__ == '__main__':
    ab_dir, _, plan_out = sys.argv[1:4]
    plan = json.load(open(Z7))
    move_ranges(load_ab(ab_dir, 'e90b'), ab_dir, plan, 'E90b', RANGES)
    write_plan(plan, plan_out)
    print(f'plan Z7b written to {plan_out}')
