#!/usr/bin/env python3
"""Session 28, call 3's rule (fixed before the call): session 23's rule (plan_rule.move_ranges: per
range the candidate's span of measured M with gain >= 0 holding a scored M at >= +1 %, gain =
min(ratio gain, time gain), a passing `projkit check`; a range without scored M moves only if every
measured M gains >= +1 %) over E91's A/B (ab_configs.sh tag e91, 200 pairs, the plan's method first):
- router M 4..32 (kw8.wn2.zw1) and 33..64 (kw8.wn4.zw1) on their wf1 twins (W loads issued first),
  measured at 4 / 8 / 16 / 32 and 48 / 64;
- the unpooler slice M 3..8 (kperm_splitk_zw.wr4.wk2.u8) on its lp1 twin (K range by a shift),
  measured at 3 / 4 / 5 / 8.
Plan Z8 = plans/h200.json (Z7b) plus the moves; written only if something moved.
Usage: plan_z8_from_e91.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

R = 'router_hilo_stream'
K = 'kperm_splitk_zw.wr4.wk2.u8'
RANGES = [
    ('router', f'{R}.kw8.wn2.zw1', [f'{R}.kw8.wn2.zw1.wf1'], (4, 32), (4, 8, 16, 32)),
    ('router', f'{R}.kw8.wn4.zw1', [f'{R}.kw8.wn4.zw1.wf1'], (33, 64), (48, 64)),
    ('unpooler', K, [f'{K}.lp1'], (3, 8), (3, 4, 5, 8)),
]

if __name__ == '__main__':
    rule_main(sys.argv, 'e91', 'E91', RANGES, 'Z8')
