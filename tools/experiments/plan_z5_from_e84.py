#!/usr/bin/env python3
"""Session 25, call 1: plan Z5 = plan Z4 with the router's ring range M 65..256 (every part of it on
router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1) moved to E84's x multicast over the 4 row tiles,
alone (early1.xmc4, clusters of 4 along y) or with E83's W pair (early1.wmc1.xmc4, clusters of
(1, 4, 2)), by session 23's rule (plan_rule.move_ranges, fixed before the run): a candidate's span is
the run of measured M it gains >= 0 at that holds the most scored M with a gain >= +1 % (to the
range's edge where the run reaches its first / last measured M); of the qualifying candidates, the
one with the largest mean gain over the scored M of its span; only a candidate with a passing
`projkit check` over router M 1..256 counts. gain = min(ratio gain, time gain) - 1 over the two runs
of each config (200 pairs each), against the incumbent (each case's first config), measured at
M 65 / 80 / 96 / 128 / 160 / 192 / 224 / 256.
Usage: plan_z5_from_e84.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

R = 'router_hilo_ring.split16.wgn1.ts2.zw1.early1'
W = R + '.wmc1'
X1, X2 = R + '.xmc4', W + '.xmc4'
RANGES = [('router', W, [X1, X2], (65, 256), (65, 80, 96, 128, 160, 192, 224, 256))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e84', 'E84', RANGES, 'Z5')
