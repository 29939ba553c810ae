#!/usr/bin/env python3
"""Session 26, call 1: plan Z5 = plan Z4 with M 65..256 ranges of qkv, pooler and unpooler moved to
E86's x multicast pairs (red5 mc2 on rk1.ki1, with or without ko1), by session 23's rule
(plan_rule.move_ranges, fixed before the run): a candidate's span is the run of measured M it gains
>= 0 at that holds the most scored M with a gain >= +1 % (to the range's edge where the run reaches
its first / last measured M); of the qualifying candidates, the one with the largest mean gain over
the scored M of its span; a range without scored M moves only to a candidate that gains >= +1 % at
every measured M. Only a candidate with a passing `projkit check` over its family's range counts.
gain = min(ratio gain, time gain) - 1 over the A/B's runs (200 pairs), against the incumbent (each
case's first config).
Usage: plan_z5_from_e86.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

W = 'wgmma_tma.bn128'
T = {128: 'stages6', 192: 'stages5', 256: 'stages4'}


def c(bm, split, mc, tail):
    return f'{W}.bm{bm}.split{split}.mc{mc}.{T[bm]}.xfit1.red5.rk1{tail}'


def pair(bm, split):
    return [c(bm, split, 2, '.ki1'), c(bm, split, 2, '.ki1.ko1')]


RANGES = [('qkv', c(128, 4, 1, '.ki1.wsl1'), pair(128, 7), (65, 128), (96, 128)),
          ('qkv', c(192, 7, 1, '.ki1.ko1'), pair(192, 7), (129, 192), (160, 192)),
          ('qkv', c(256, 7, 1, '.ki1.ko1'), pair(256, 7), (193, 256), (256,)),
          ('pooler', c(128, 4, 1, '.ki1'), pair(128, 4), (65, 128), (96, 128)),
          ('pooler', c(192, 4, 1, '.ki1'), pair(192, 4), (129, 192), (160, 192)),
          ('pooler', c(256, 4, 1, '.ki1'), pair(256, 4), (193, 256), (256,)),
          ('unpooler', c(128, 2, 1, '.ki1'), pair(128, 2), (65, 117), (96,)),
          ('unpooler', c(128, 2, 1, '.ki1'), pair(128, 2), (128, 128), (128,)),
          ('unpooler', c(192, 2, 1, ''), pair(192, 2), (129, 192), (160, 192)),
          ('unpooler', c(256, 2, 1, '.ki1'), pair(256, 2), (224, 256), (256,))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e86', 'E86', RANGES, 'Z5')
