#!/usr/bin/env python3
"""Session 32, call 3's rule (fixed before the call): session 23's rule (plan_rule.best_candidate:
per range the candidate whose span of measured M with gain >= 0 holds a scored M at >= +1 %, gain =
min(ratio gain, time gain), a passing `projkit check`), over call 3's A/B (ab_configs.sh tag e97,
200 pairs, the plan's method first): E97, P31's leads at the scored loads (session 32, call 2):
- pooler M 65..128: bm128.split4 ...ki1 (plan) against the W multicast pair bm64.split2 ...ki1.wmc1
  (P31 at M 128: +2.1 % ratio / +1.3 % time; E87 read -2.4 / -0.7 % at M 96 / 128); measured 65, 80,
  96, 112, 128;
- pooler M 6..64 and unpooler M 9..64: ...ki1.wsl1 (plan) against .wsl2.ls1 and .wsl2 (P31 at M 16 /
  32: pooler +0.7 / +1.3 %, unpooler +1.0 / +1.3 % in ratio; E89b read +0.2..+0.6 %); measured
  pooler 6, 8, 16, 32, 48, 64 and unpooler 9, 16, 32, 48, 64. All or nothing (E89c's reason): a
  span that leaves part of the range on wsl1 would keep both slab copies (two 67 MB / 33.5 MB copies
  per Projection), so only a span equal to the whole range moves.
Session 32's review folded the all-or-nothing check into plan_rule.move_ranges' `whole`; on call 3's
files the rule prints the same lines and the same CASES as the version that ran.
Usage: plan_z10_from_e97.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

W = 'wgmma_tma.bn128'
POOLER_128 = f'{W}.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1'
PAIR_64 = f'{W}.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wmc1'
SLAB = f'{W}.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1'
RANGES = [  # (family, incumbent, candidates, range, measured M)
    ('pooler', POOLER_128, [PAIR_64], (65, 128), (65, 80, 96, 112, 128)),
    ('pooler', f'{SLAB}.wsl1', [f'{SLAB}.wsl2.ls1', f'{SLAB}.wsl2'], (6, 64), (6, 8, 16, 32, 48, 64)),
    ('unpooler', f'{SLAB}.wsl1', [f'{SLAB}.wsl2.ls1', f'{SLAB}.wsl2'], (9, 64), (9, 16, 32, 48, 64)),
]
WHOLE = {('pooler', 6, 64), ('unpooler', 9, 64)}  # the slab ranges: all or nothing
# (family, M, configs) of the A/B: the incumbent first, as ab_configs.sh's CASES words
CASES = [f'{fam}:{m}:{",".join([inc] + cands)}' for fam, inc, cands, _, ms in RANGES for m in ms]

if __name__ == '__main__':
    if sys.argv[1:] == ['--cases']:
        print(' '.join(CASES))
    else:
        rule_main(sys.argv, 'e97', 'E97', RANGES, 'Z10', WHOLE)
