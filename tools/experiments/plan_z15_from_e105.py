#!/usr/bin/env python3
"""Session 34, call 6's rule (fixed before the call): E105, router_hilo_ring wmc1.lf1.ls1 with the
multicast rest of its first fill issued in parallel, one k-block per warp (pf1), against ls1 on every
router range plan Z12b runs it (65..256, in its seven ranges; two measured M or more per range, E103's
lesson), one same-binary A/B (tag e105), plan_rule.move_ranges: session 22's span rule where the range
holds a scored M (106..192, 193..256), session 23's unscored rule elsewhere. (Plans Z13 and Z14 were
calls 3 and 5's, not shipped; this plan is Z15.)
Usage: plan_z15_from_e105.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

LS1 = 'router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1'
PF = [f'{LS1}.pf1']
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('router', LS1, PF, (65, 78), (65, 72, 78)),
    ('router', LS1, PF, (79, 81), (79, 81)),
    ('router', LS1, PF, (82, 98), (82, 90, 98)),
    ('router', LS1, PF, (99, 100), (99, 100)),
    ('router', LS1, PF, (101, 105), (101, 105)),
    ('router', LS1, PF, (106, 192), (106, 128, 160, 192)),
    ('router', LS1, PF, (193, 256), (193, 224, 256)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e105', 'E105', RANGES, 'Z15')
