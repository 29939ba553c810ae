#!/usr/bin/env python3
"""Session 29, call 2's rule (fixed before the call), over call 2's A/B (ab_configs.sh tag e93c, 300
pairs, the plan's method first). Call 1 (E93b) read splitk_mma_l2.rows64.split1.wk2.lp1 against plan
Z8's stages8 at o M 17 / 24 / 32: +3.5 / +1.7 / +0.9 %; call 1's rule (session 23's span rule) kept
stages8 because scored M 32 was under +1 %. Here, with M 20, 28 and 31 added:
1. o M 17..32 (measured 17, 20, 24, 28, 31, 32): session 23's span rule (plan_rule.move_ranges) for
   wk2.lp1;
2. if 1 did not move it, o M 17..31 (measured 17, 20, 24, 28, 31; no scored M): session 23's rule for
   a range without scored M, wk2.lp1 if it gains >= +1 % at every measured M.
Writes plan Z8b = Z8 plus the move (nothing if none).
Usage: plan_z8b_from_e93c.py AB_DIR PLAN_IN PLAN_OUT"""
import json, sys

from plan_rule import load_ab, move_ranges, write_plan

L = 'splitk_mma_l2.rows64.split1'
WIDE = ('o', f'{L}.stages8', [f'{L}.wk2.lp1'], (17, 32), (17, 20, 24, 28, 31, 32))
UNSCORED = ('o', f'{L}.stages8', [f'{L}.wk2.lp1'], (17, 31), (17, 20, 24, 28, 31))

if __name__ == '__main__':
    ab_dir, plan_in, plan_out = sys.argv[1:4]
    plan = json.load(open(plan_in))
    ab = load_ab(ab_dir, 'e93c')
    if move_ranges(ab, ab_dir, plan, 'E93c', [WIDE]) or move_ranges(ab, ab_dir, plan, 'E93c', [UNSCORED]):
        write_plan(plan, plan_out)
        print(f'plan Z8b written to {plan_out}')
