#!/usr/bin/env python3
"""Session 29, call 1's rule (fixed before the call): session 23's rule (plan_rule.move_ranges: per
range the candidate whose span of measured M with gain >= 0 holds a scored M at >= +1 %, gain =
min(ratio gain, time gain), a passing `projkit check`; a range without scored M moves only if a
candidate gains >= +1 % at every measured M), over call 1's A/B (ab_configs.sh tag e93, 200 pairs,
the plan's method first):
- E93, router_hilo_stream's x loaders on the plan's two tiles: router M 4..32 (kw8.wn2.zw1; measured
  4, 8, 16, 24, 32) and M 33..64 (kw8.wn4.zw1; measured 33, 48, 64; no scored M);
- E93b, o M 17..32 (splitk_mma_l2.rows64.split1.stages8; measured 17, 24, 32) on stages8.wk2.lp1 or
  wk2.lp1.
Usage: plan_z8_from_e93.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

S = 'router_hilo_stream'
L = 'splitk_mma_l2.rows64.split1'
RANGES = [
    ('router', f'{S}.kw8.wn2.zw1', [f'{S}.kw8.wn2.zw1.xl{i}' for i in (1, 2, 3)], (4, 32), (4, 8, 16, 24, 32)),
    ('router', f'{S}.kw8.wn4.zw1', [f'{S}.kw8.wn4.zw1.xl{i}' for i in (1, 2, 3)], (33, 64), (33, 48, 64)),
    ('o', f'{L}.stages8', [f'{L}.stages8.wk2.lp1', f'{L}.wk2.lp1'], (17, 32), (17, 24, 32)),
]

if __name__ == '__main__':
    rule_main(sys.argv, 'e93', 'E93', RANGES, 'Z8')
