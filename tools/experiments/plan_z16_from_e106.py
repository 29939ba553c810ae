#!/usr/bin/env python3
"""Session 35, call 2's rule (fixed before the call): E106, the split-1 W pairs' tile stored by bulk
copies (bs1), one same-binary A/B (tag e106) against the plan's method on every range plan Z12b runs
a split-1 pair, and on o M 129..256, where cuBLAS runs (E87: the pair bm128.split1 ties it at M 256).
plan_rule.move_ranges per range: session 22's span rule where the range holds a scored M, session
23's unscored rule (every measured M >= +1 %, a passing check) where it holds none; every range is
measured at two M or more but unpooler M 128, a range of one scored M.
Usage: plan_z16_from_e106.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

W = 'wgmma_tma.bn128.'
P64S1 = W + 'bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1'
P128S1 = W + 'bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1'
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('o', P64S1, [f'{P64S1}.bs1'], (72, 128), (72, 96, 128)),
    ('o', 'baseline', [f'{P128S1}.bs1', f'{P128S1}.xsh1.bs1', P128S1], (129, 256), (136, 160, 192, 224, 256)),
    ('unpooler', P64S1, [f'{P64S1}.bs1'], (88, 117), (88, 117)),
    ('unpooler', P64S1, [f'{P64S1}.bs1'], (128, 128), (128,)),
    ('unpooler', f'{P128S1}.xsh1', [f'{P128S1}.xsh1.bs1'], (193, 207), (193, 207)),
    ('unpooler', f'{P128S1}.xsh1', [f'{P128S1}.xsh1.bs1'], (209, 223), (209, 223)),
    ('unpooler', P128S1, [f'{P128S1}.bs1'], (224, 256), (224, 240, 256)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e106', 'E106', RANGES, 'Z16')
