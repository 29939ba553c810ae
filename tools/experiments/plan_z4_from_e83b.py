#!/usr/bin/env python3
"""Session 24, call 3: plan Z4 = plan Z3 (call 2: router M 65..78 and 106..192 on E83's
router_hilo_ring wmc1) with wmc1 measured on the ring ranges call 2 left out, by the same rule
(plan_rule.move_ranges, fixed before the run): a candidate's span is the run of measured M it gains
>= 0 at that holds the most scored M with a gain >= +1 % (to the range's edge where the run reaches
its first / last measured M); a range with no scored M moves only at >= +1 % at every measured M;
only a candidate with a passing `projkit check` over router M 65..256 counts. gain = min(ratio gain,
time gain) - 1 over the two runs of each config (300 pairs each), against the incumbent.
- router M 79..81 (early1), 99..100 (early1), 82..98 (zw1), 101..105 (zw1): no scored M; measured at
  79 / 81, 99 / 100, 82 / 90 / 98, 101 / 105;
- router M 193..256 (early1): measured at 193 / 208 / 224 / 240 / 256 (call 2: +5.7 % at 256, -0.2 %
  at 224, which the span rule of call 2 cut at 192).
Usage: plan_z4_from_e83b.py AB_DIR PLAN_Z3 PLAN_OUT"""
import sys

from plan_rule import rule_main

R = 'router_hilo_ring.split16.wgn1.ts2.zw1'
E, W = R + '.early1', [R + '.early1.wmc1']
RANGES = [('router', E, W, (79, 81), (79, 81)),
          ('router', R, W, (82, 98), (82, 90, 98)),
          ('router', E, W, (99, 100), (99, 100)),
          ('router', R, W, (101, 105), (101, 105)),
          ('router', E, W, (193, 256), (193, 208, 224, 240, 256))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e83b', 'E83b', RANGES, 'Z4')
