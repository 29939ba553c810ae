#!/usr/bin/env python3
"""Session 28, call 4's rule (fixed before the call): session 23's rule (plan_rule.move_ranges) over
E92's A/B (ab_configs.sh tag e92, 200 pairs, the plan's lp1 method first): each of plan Z7b's gemv
lp1 ranges on its lp2 twin (32-bit weight offsets): unpooler M 1..2 (measured 1, 2), qkv M 1, pooler M 1.
Plan Z9 = plans/h200.json (Z7b) plus the moves; written only if something moved.
Usage: plan_z9_from_e92.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

G = 'gemv_stream'
RANGES = [
    ('unpooler', f'{G}.rows4.warps8.lp1', [f'{G}.rows4.warps8.lp2'], (1, 2), (1, 2)),
    ('qkv', f'{G}.rows2.warps8.eq1.mb4.lp1', [f'{G}.rows2.warps8.eq1.mb4.lp2'], (1, 1), (1,)),
    ('pooler', f'{G}.rows2.warps8.eq1.mb4.lp1', [f'{G}.rows2.warps8.eq1.mb4.lp2'], (1, 1), (1,)),
]

if __name__ == '__main__':
    rule_main(sys.argv, 'e92', 'E92', RANGES, 'Z9')
