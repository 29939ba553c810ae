#!/usr/bin/env python3
"""Session 33, call 1's rule (fixed before the call): E100 (splitk_mma_l2 with two 16-row slabs per
warp, ms2, at o M 1..64) and E101 (router_hilo_ring wmc1 with its first k-blocks loaded locally,
lf1 / lf2, at router M 65..256), one same-binary A/B (tag e100), plan_rule.move_ranges per range:
session 22's span rule where the range holds a scored M, session 23's unscored rule (every measured
M >= +1 %, a passing check) where it holds none. Ranges and the M measured in each:
- o 1..8 (lp1), 9..16 and 17..32 (wk2.lp1): ms2.wk2 and ms2.wk4 against the plan's method;
- o 33..64, on the baseline (cuBLAS) now: the same two against the baseline (unscored rule);
- router 65..78 and 82..98 (unscored), 106..192 and 193..256 (scored M 128 / 256): lf1 and lf2
  against wmc1, the plan's method there. The ring's short ranges 79..81, 99..100 and 101..105 are
  not measured and stay.
E100 was refuted and its ms2 configs removed after call 1 (the code is in cf96ed9); this rule stays as
the record of E101, which shipped from it (plan Z11).
Usage: plan_z11_from_e100.py AB_DIR PLAN_IN PLAN_OUT | --cases"""
import sys

from plan_rule import rule_cli

L2 = 'splitk_mma_l2.rows64.split1'
MS2 = [f'{L2}.wk2.lp1.ms2', f'{L2}.wk4.lp1.ms2']
RING = 'router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1'
LF = [f'{RING}.lf1', f'{RING}.lf2']
RANGES = [  # (family, incumbent, candidates, (lo, hi), measured M)
    ('o', f'{L2}.lp1', MS2, (1, 8), (1, 4, 8)),
    ('o', f'{L2}.wk2.lp1', MS2, (9, 16), (9, 12, 16)),
    ('o', f'{L2}.wk2.lp1', MS2, (17, 32), (17, 24, 32)),
    ('o', 'baseline', MS2, (33, 64), (33, 40, 48, 56, 64)),
    ('router', RING, LF, (65, 78), (65, 72, 78)),
    ('router', RING, LF, (82, 98), (82, 90, 98)),
    ('router', RING, LF, (106, 192), (106, 128, 160, 192)),
    ('router', RING, LF, (193, 256), (193, 224, 256)),
]

if __name__ == '__main__':
    rule_cli(sys.argv, 'e100', 'E100/E101', RANGES, 'Z11')
