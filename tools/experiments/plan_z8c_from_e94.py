#!/usr/bin/env python3
"""Session 29, call 3's rule (fixed before the call): session 23's rule (plan_rule.move_ranges) over
call 3's A/B (ab_configs.sh tag e94, 300 pairs, the plan's method first): E94, kperm_splitk_zw with
x staged in smem (wr4.wk2.u8.xs1) at the unpooler slice's M 3..8 (measured 3, 4, 5, 6, 8; scored 8),
against plan Z8b's kperm_splitk_zw.wr4.wk2.u8. Writes plan Z8c only if the range moves.
Usage: plan_z8c_from_e94.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

K = 'kperm_splitk_zw.wr4.wk2.u8'
RANGES = [('unpooler', K, [f'{K}.xs1'], (3, 8), (3, 4, 5, 6, 8))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e94', 'E94', RANGES, 'Z8c')
