#!/usr/bin/env python3
"""Session 25, call 3: plan Z5 = plan Z4 with the small-M slab ranges moved to an E85 variant of
their config, by session 23's rule (plan_rule.move_ranges, fixed before the run): a candidate's span
is the run of measured M it gains >= 0 at that holds the most scored M with a gain >= +1 % (to the
range's edge where the run reaches its first / last measured M); of the qualifying candidates, the
one with the largest mean gain over the scored M of its span; only a candidate with a passing
`projkit check` over qkv, pooler and unpooler M 1..64 counts. gain = min(ratio gain, time gain) - 1
over the two runs of each config (200 pairs each), against the incumbent (each case's first config).
Candidates: the incumbent with the lean start (.wsl1.ls1), with W's pre-swizzled slabs by bulk copy
(.wsl2), and both (.wsl2.ls1).
- qkv M 2..64 (bm64.split4 .rk1.ki1.wsl1), measured at 2 / 8 / 16 / 32 / 64;
- pooler M 6..64 (bm64.split2 .rk1.ki1.wsl1), measured at 6 / 8 / 16 / 32 / 64;
- unpooler M 9..64 (bm64.split2 .rk1.ki1.wsl1), measured at 9 / 16 / 32 / 64.
Usage: plan_z5_from_e85.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

W = 'wgmma_tma.bn128'
Q64 = W + '.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1'
S64 = W + '.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1'


def cands(b):
    return [b + '.wsl1.ls1', b + '.wsl2', b + '.wsl2.ls1']


RANGES = [('qkv', Q64 + '.wsl1', cands(Q64), (2, 64), (2, 8, 16, 32, 64)),
          ('pooler', S64 + '.wsl1', cands(S64), (6, 64), (6, 8, 16, 32, 64)),
          ('unpooler', S64 + '.wsl1', cands(S64), (9, 64), (9, 16, 32, 64))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e85', 'E85', RANGES, 'Z5')
