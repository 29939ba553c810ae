#!/usr/bin/env python3
"""Session 32, call 8's rule (fixed before the call): E98, the unpooler's M 193..223 off the baseline.
Run Z10b's sweep reads cuBLAS at 26.4-27.2 us there (a faster algorithm than at M 192 or 224..256,
28.7-32.6 us) and the plan's W pair bm128.split1.wmc1 at 25.6-26.3 us from M 224 (padded token
tiles: the pair's time hardly moves with M), so the pair may lead by 1-3 % at M 193..223, where the
sweep reads baseline against baseline (0.989..1.007). An unscored range: session 23's rule for one
(plan_rule.unscored_candidate): every measured M >= +1 % in min(ratio gain, time gain), a passing
`projkit check`; M 208 keeps its cuBLASLt range, so the two sides move separately.
Usage: plan_z10c_from_e98.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_cli

PAIR = 'wgmma_tma.bn128.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1'
RANGES = [  # (family, incumbent, candidates, range, measured M)
    ('unpooler', 'baseline', [PAIR], (193, 207), (193, 197, 201, 205, 207)),
    ('unpooler', 'baseline', [PAIR], (209, 223), (209, 213, 217, 221, 223)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e98', 'E98', RANGES, 'Z10c')
