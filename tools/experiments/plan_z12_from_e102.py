#!/usr/bin/env python3
"""Session 34, call 1's rule (fixed before the call): E102 (router_hilo_ring wmc1.lf1 with the lean
start, ls1) and E102b (the wgmma_tma W pairs, wmc1 and wmc1.xsh1, with E85's lean start, ls1), one
same-binary A/B (tag e102) against the plan's method on every range plan Z11b runs the incumbent,
plan_rule.move_ranges per range: session 22's span rule where the range holds a scored M, session
23's unscored rule (every measured M >= +1 %, a passing check) where it holds none. The ring's short
ranges 79..81 (wmc1), 99..100 and 101..105 are not measured and stay.
Usage: plan_z12_from_e102.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

RING = 'router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1'
W = 'wgmma_tma.bn128.'
P64S1 = W + 'bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1'
P64S3 = W + 'bm64.split3.mc1.stages8.xfit1.red5.rk1.ki1.wmc1'
P128S1 = W + 'bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1'
P128S2 = W + 'bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wmc1'
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('router', RING, [f'{RING}.ls1'], (65, 78), (65, 72, 78)),
    ('router', RING, [f'{RING}.ls1'], (82, 98), (82, 90, 98)),
    ('router', RING, [f'{RING}.ls1'], (106, 192), (106, 128, 160, 192)),
    ('router', RING, [f'{RING}.ls1'], (193, 256), (193, 224, 256)),
    ('qkv', P64S3, [f'{P64S3}.ls1'], (84, 128), (84, 96, 112, 128)),
    ('o', P64S1, [f'{P64S1}.ls1'], (72, 128), (72, 96, 112, 128)),
    ('unpooler', P64S1, [f'{P64S1}.ls1'], (88, 117), (88, 100, 117)),
    ('unpooler', P64S1, [f'{P64S1}.ls1'], (128, 128), (128,)),
    ('unpooler', f'{P128S1}.xsh1', [f'{P128S1}.xsh1.ls1'], (193, 207), (193, 200, 207)),
    ('unpooler', f'{P128S1}.xsh1', [f'{P128S1}.xsh1.ls1'], (209, 223), (209, 216, 223)),
    ('unpooler', P128S1, [f'{P128S1}.ls1'], (224, 256), (224, 240, 256)),
    ('pooler', P128S2, [f'{P128S2}.ls1'], (256, 256), (256,)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e102', 'E102', RANGES, 'Z12')
