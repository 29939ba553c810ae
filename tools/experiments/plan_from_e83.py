#!/usr/bin/env python3
"""Session 24, call 2: plan Z3 = plan Z with the router's ring range M 106..256 moved to E83's
router_hilo_ring wmc1 (W multicast over the two token slices), by session 23's rule (plan_rule.
move_ranges, fixed before the run): a candidate's span is the run of measured M it gains >= 0 at
that holds the most scored M with a gain >= +1 % (to the range's edge where the run reaches its
first / last measured M); only a candidate with a passing `projkit check` over router M 1..256
counts. gain = min(ratio gain, time gain) - 1 over the two runs of each config (200 pairs each),
against the incumbent (each case's first config).
- router M 106..256 (zw1.early1) against early1.wmc1, measured at 106 / 128 / 160 / 192 / 224 / 256;
- router M 65..78 (zw1, no scored M: moves only at >= +1 % at every measured M) against early1.wmc1,
  measured at 65 / 72 / 78.
Usage: plan_from_e83.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

R = 'router_hilo_ring.split16.wgn1.ts2.zw1'
W = R + '.early1.wmc1'
RANGES = [('router', R + '.early1', [W], (106, 256), (106, 128, 160, 192, 224, 256)),
          ('router', R, [W], (65, 78), (65, 72, 78))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e83', 'E83', RANGES, 'Z3')
