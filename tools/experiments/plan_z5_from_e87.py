#!/usr/bin/env python3
"""Session 26, call 2: plan Z5 = plan Z4 with M 65..256 ranges of qkv, o, pooler and unpooler moved
to E87's W multicast pairs over the two token tiles (wmc1: red5.rk1.ki1, bm64 at M 65..128, bm128 at
M 129..256; pooler split 2, unpooler and o split 1, qkv split 3), by session 23's rule
(plan_rule.move_ranges, fixed before the run): a candidate's span is the run of measured M it gains
>= 0 at that holds the most scored M with a gain >= +1 % (to the range's edge where the run reaches
its first / last measured M); of the qualifying candidates, the one with the largest mean gain over
the scored M of its span; a range without scored M moves only to a candidate that gains >= +1 % at
every measured M. Only a candidate with a passing `projkit check` over its range counts.
gain = min(ratio gain, time gain) - 1 over the A/B's runs (200 pairs), against the incumbent (each
case's first config; o runs the baseline at M >= 33).
Usage: plan_z5_from_e87.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

W = 'wgmma_tma.bn128'
T = {64: 'stages8', 128: 'stages6', 192: 'stages5', 256: 'stages4'}


def c(bm, split, tail):
    return f'{W}.bm{bm}.split{split}.mc1.{T[bm]}.xfit1.red5.rk1{tail}'


def wmc(bm, split):
    return [c(bm, split, '.ki1.wmc1')]


RANGES = [('qkv', c(128, 4, '.ki1.wsl1'), wmc(64, 3), (65, 128), (96, 128)),
          ('qkv', c(192, 7, '.ki1.ko1'), wmc(128, 3), (129, 192), (160, 192)),
          ('qkv', c(256, 7, '.ki1.ko1'), wmc(128, 3), (193, 256), (224, 256)),
          ('o', 'baseline', wmc(64, 1), (65, 128), (96, 128)),
          ('o', 'baseline', wmc(128, 1), (129, 256), (192, 256)),
          ('pooler', c(128, 4, '.ki1'), wmc(64, 2), (65, 128), (96, 128)),
          ('pooler', c(192, 4, '.ki1'), wmc(128, 2), (129, 192), (160, 192)),
          ('pooler', c(256, 4, '.ki1'), wmc(128, 2), (193, 256), (224, 256)),
          ('unpooler', c(128, 2, '.ki1'), wmc(64, 1), (65, 117), (96,)),
          ('unpooler', c(128, 2, '.ki1'), wmc(64, 1), (128, 128), (128,)),
          ('unpooler', c(192, 2, ''), wmc(128, 1), (129, 192), (160, 192)),
          ('unpooler', c(256, 2, '.ki1'), wmc(128, 1), (224, 256), (224, 256))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e87', 'E87', RANGES, 'Z5')
