#!/usr/bin/env python3
"""Session 34, call 2's rule (fixed before the call): E102c, the router ring's three short ranges that
call 1 did not measure against the lean start: 79..81 (on wmc1) against wmc1.lf1 and wmc1.lf1.ls1,
99..100 and 101..105 (on wmc1.lf1) against wmc1.lf1.ls1, which plan Z12 runs on every other ring
range. None holds a scored M: session 23's unscored rule (plan_rule.move_ranges: every measured M
>= +1 %, a passing check; call 1's check of lf1.ls1 over router M 65..256 passed, and call 2 repeats
it on the same binary).
Usage: plan_z12b_from_e102c.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

RING = 'router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1'
LF1, LS = f'{RING}.lf1', f'{RING}.lf1.ls1'
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('router', RING, [LF1, LS], (79, 81), (79, 80, 81)),
    ('router', LF1, [LS], (99, 100), (99, 100)),
    ('router', LF1, [LS], (101, 105), (101, 103, 105)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e102c', 'E102c', RANGES, 'Z12b')
