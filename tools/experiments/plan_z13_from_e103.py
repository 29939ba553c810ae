#!/usr/bin/env python3
"""Session 34, call 3's rule (fixed before the call): E103, x's tensor map prefetched at entry by another
warp than thread 0 (router_hilo_ring wmc1.lf1.ls2 against ls1; wgmma_tma ...wsl2.ls1.tp1 against
...wsl2.ls1), one same-binary A/B (tag e103) against the plan's method on every range plan Z12b runs the
incumbent, plan_rule.move_ranges per range: session 22's span rule where the range holds a scored M,
session 23's unscored rule (every measured M >= +1 %, a passing check) where it holds none. The slab
configs read the same pre-swizzled copy, so a partial move keeps one copy.
Usage: plan_z13_from_e103.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

RING = 'router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1'
LS1, LS2 = f'{RING}.ls1', f'{RING}.ls2'
W = 'wgmma_tma.bn128.'
Q64 = W + 'bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl2.ls1'
Q128 = W + 'bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl2.ls1'
P64 = W + 'bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl2.ls1'
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('router', LS1, [LS2], (65, 78), (65, 72, 78)),
    ('router', LS1, [LS2], (79, 81), (80,)),
    ('router', LS1, [LS2], (82, 98), (82, 90, 98)),
    ('router', LS1, [LS2], (99, 100), (100,)),
    ('router', LS1, [LS2], (101, 105), (103,)),
    ('router', LS1, [LS2], (106, 192), (106, 128, 160, 192)),
    ('router', LS1, [LS2], (193, 256), (193, 224, 256)),
    ('qkv', Q64, [f'{Q64}.tp1'], (2, 16), (4, 8, 16)),
    ('qkv', Q64, [f'{Q64}.tp1'], (17, 64), (17, 32, 64)),
    ('qkv', Q128, [f'{Q128}.tp1'], (65, 83), (65, 83)),
    ('pooler', P64, [f'{P64}.tp1'], (6, 64), (6, 8, 16, 32, 64)),
    ('unpooler', P64, [f'{P64}.tp1'], (9, 64), (9, 16, 32, 64)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e103', 'E103', RANGES, 'Z13')
