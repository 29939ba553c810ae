#!/usr/bin/env python3
"""Session 40, call 1's rule (fixed before the call; never run: call 1 ran on an H100, where call1_s40.sh
runs the A/B without it; E108 was refuted on both chips and removed, code in cd121d9): E108, router_hilo_stream kw8.wn2.zw1 with x by
TMA boxes (xl4) and with the boxes multicast over a pair of row blocks (xl5), one same-binary A/B
(tag e108) against the plan's method on the two router ranges plan Z12b runs that tile on (M 4..31
without the lean loader, M 32 with it). plan_rule.move_ranges per range: session 22's span rule
(both ranges hold scored M).
Usage: plan_z17_from_e108.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

S = 'router_hilo_stream.kw8.wn2.zw1'
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('router', S, [f'{S}.xl4', f'{S}.xl5'], (4, 31), (4, 8, 16, 24, 31)),
    ('router', f'{S}.xl1', [f'{S}.xl4', f'{S}.xl5'], (32, 32), (32,)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e108', 'E108', RANGES, 'Z17')
