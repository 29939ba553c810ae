#!/usr/bin/env python3
"""Session 31, call 1's rule (fixed before the call; the call ran in session 32): session 23's rule (plan_rule.move_ranges: per
range the candidate whose span of measured M with gain >= 0 holds a scored M at >= +1 %, gain =
min(ratio gain, time gain), a passing `projkit check`), over call 1's A/B (ab_configs.sh tag e96,
200 pairs, the plan's method first): E96, the rotated adds (ar1) of the plan's split-K kernels at
M 65..256:
- router M 65..256 (router_hilo_ring ...wmc1; measured 65, 96, 128, 160, 192, 256);
- qkv M 84..128 (wgmma_tma bm64.split3 ...ki1.wmc1; measured 84, 96, 112, 128) and M 193..256
  (bm256.split7 ...ki1.ko1; measured 193, 224, 256);
- pooler M 65..128 (bm128.split4 ...ki1; measured 65, 96, 128) and M 256 (bm128.split2 ...ki1.wmc1).
Usage: plan_z10_from_e96.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

R = 'router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1'
W = 'wgmma_tma.bn128'
QKV_128 = f'{W}.bm64.split3.mc1.stages8.xfit1.red5.rk1.ki1.wmc1'
QKV_256 = f'{W}.bm256.split7.mc1.stages4.xfit1.red5.rk1.ki1.ko1'
POOLER_128 = f'{W}.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1'
POOLER_256 = f'{W}.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wmc1'
RANGES = [
    ('router', R, [f'{R}.ar1'], (65, 256), (65, 96, 128, 160, 192, 256)),
    ('qkv', QKV_128, [f'{QKV_128}.ar1'], (84, 128), (84, 96, 112, 128)),
    ('qkv', QKV_256, [f'{QKV_256}.ar1'], (193, 256), (193, 224, 256)),
    ('pooler', POOLER_128, [f'{POOLER_128}.ar1'], (65, 128), (65, 96, 128)),
    ('pooler', POOLER_256, [f'{POOLER_256}.ar1'], (256, 256), (256,)),
]
# (family, M, configs) of the A/B: the incumbent first, as ab_configs.sh's CASES words
CASES = [f'{fam}:{m}:{inc},{cands[0]}' for fam, inc, cands, _, ms in RANGES for m in ms]

if __name__ == '__main__':
    if sys.argv[1:] == ['--cases']:
        print(' '.join(CASES))
    else:
        rule_main(sys.argv, 'e96', 'E96', RANGES, 'Z10')
