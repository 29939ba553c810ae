#!/usr/bin/env python3
"""Session 34, call 5's rule (fixed before the call): E104, splitk_mma_l2 with an L2 prefetch of the
CTA's first W line at entry (lp2), so the first wait on the cold kernel parameters covers both of
their constant-bank lines, against lp1 on the plan's three o ranges (M 1..8 lp1, 9..16 and 17..32
wk2.lp1), one same-binary A/B (tag e104), plan_rule.move_ranges: session 22's span rule (every range
holds a scored M). (Plan Z13 was call 3's, not shipped; this plan is Z14.)
Usage: plan_z14_from_e104.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

L2 = 'splitk_mma_l2.rows64.split1'
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('o', f'{L2}.lp1', [f'{L2}.lp2'], (1, 8), (1, 4, 8)),
    ('o', f'{L2}.wk2.lp1', [f'{L2}.wk2.lp2'], (9, 16), (9, 12, 16)),
    ('o', f'{L2}.wk2.lp1', [f'{L2}.wk2.lp2'], (17, 32), (17, 24, 32)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e104', 'E104', RANGES, 'Z14')
