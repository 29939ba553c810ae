#!/usr/bin/env python3
"""Session 33, call 2's rule (fixed before the call): E101b, the router ring's three short ranges that
call 1 did not measure (79..81, 99..100, 101..105, on wmc1) against wmc1.lf1, which plan Z11 runs on
every other ring range. None holds a scored M: session 23's unscored rule (plan_rule.move_ranges:
every measured M >= +1 %, a passing check: call 1's check of lf1 over router M 65..256 passed, and
call 2 repeats it on this binary).
Usage: plan_z11b_from_e101b.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

RING = 'router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1'
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('router', RING, [f'{RING}.lf1'], (79, 81), (79, 80, 81)),
    ('router', RING, [f'{RING}.lf1'], (99, 100), (99, 100)),
    ('router', RING, [f'{RING}.lf1'], (101, 105), (101, 103, 105)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e101b', 'E101b', RANGES, 'Z11b')
