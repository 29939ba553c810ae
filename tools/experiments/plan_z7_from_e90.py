#!/usr/bin/env python3
"""Session 28's rule for E90 (the lean prologue, lp1), applied to call 1's A/B (ab_configs.sh tag e90,
200 pairs, the plan's method first). Unlike earlier rules it was written after that A/B was read; it
is session 23's rule unchanged (plan_rule.move_ranges: per range the lp1 twin of the plan's method,
its span of measured M with gain >= 0 holding a scored M at >= +1 %, gain = min(ratio gain, time
gain), a passing `projkit check`), over each range that ran a config with a listed lp1 twin:
unpooler M 1..2 (measured 1, 2), qkv M 1, pooler M 1, o M 1..8 (1, 8), 9..16 (16), 17..32 (32).
Usage: plan_z7_from_e90.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

G = 'gemv_stream'
L = 'splitk_mma_l2.rows64.split1'
RANGES = [
    ('unpooler', f'{G}.rows4.warps8', [f'{G}.rows4.warps8.lp1'], (1, 2), (1, 2)),
    ('qkv', f'{G}.rows2.warps8.eq1.mb4', [f'{G}.rows2.warps8.eq1.mb4.lp1'], (1, 1), (1,)),
    ('pooler', f'{G}.rows2.warps8', [f'{G}.rows2.warps8.lp1'], (1, 1), (1,)),
    ('o', L, [f'{L}.lp1'], (1, 8), (1, 8)),
    ('o', f'{L}.wk2', [f'{L}.wk2.lp1'], (9, 16), (16,)),
    ('o', f'{L}.stages8', [f'{L}.stages8.lp1'], (17, 32), (32,)),
]

if __name__ == '__main__':
    rule_main(sys.argv, 'e90', 'E90', RANGES, 'Z7')
