#!/usr/bin/env python3
"""Session 32, E97b (written after call 3, before call 4): plan Z10b = the plan in force with the
pooler's M 6..64 and the unpooler's M 9..64 on ...ki1.wsl2.ls1 instead of ...ki1.wsl1, whole ranges
(one slab copy per Projection either way). Why: three same-binary reads agree in sign and size
(E89b +0.2..+0.6 %, P31 +0.7..+1.3 %, E97 +0.1..+1.0 % at every measured M of both ranges) but stay
under session 23's +1 % at a scored M; so the plan A/B decides, with a verdict fixed before call 4
(call4_s32.sh: mean score change >= 0 over three rounds and every changed scored case >= 0).
Usage: plan_z10b_from_e97.py PLAN_IN PLAN_OUT"""
import json
import sys

from plan_rule import set_range, write_plan

SLAB = 'wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1'

if __name__ == '__main__':
    plan = json.load(open(sys.argv[1]))
    for fam, lo, hi in (('pooler', 6, 64), ('unpooler', 9, 64)):
        assert any(r['m'] == [lo, hi] and r['method'] == f'{SLAB}.wsl1' for r in plan['families'][fam]), (fam, lo, hi)
        set_range(plan, fam, lo, hi, f'{SLAB}.wsl2.ls1')
    write_plan(plan, sys.argv[2])
