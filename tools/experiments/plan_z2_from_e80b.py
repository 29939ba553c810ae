#!/usr/bin/env python3
"""Session 23, call 3: plan Z2 = plan Z with o's ranges moved by E80b, a re-measure of E80's two
warps per slab (splitk_mma_l2 wk2) at the 32-token tile, which P22's counters contradict (ncu: wk2
8.10 against wk1 8.96 us at o M 32, 7.65 against 8.32 at M 16; E80's bench A/B: -0.6..-2.8 % at
M 17..32), and a first look at wk2 against the baseline at o M 33..64 (the 64-token tile). Rule of
plan_z_from_e80.py / plan_rule.best_candidate, fixed before the run: per incumbent range a
candidate's span is the run of measured M it gains >= 0 at that holds the most scored M with a gain
>= +1 % (to the range's edge where the run reaches its first / last measured M); only candidates
with a passing `projkit check` over the range count; of one range's candidates the one with the
largest mean gain over the scored M of its span moves. gain = min(ratio gain, time gain) - 1 over
the two runs of each config (400 pairs each), against the incumbent (each case's first config).
- o M 17..32 (rows64.split1.stages8) against stages8.wk2 and wk2, measured at 17 / 20 / 24 / 28 / 32;
- o M 33..64 (the baseline) against stages8.wk2 and stages8, measured at 33 / 40 / 48 / 56 / 64.
  This range holds no scored M (best_candidate's span needs one), so here a candidate moves only
  if it gains >= +1 % at every measured M of the range (the largest mean gain if several do), with
  a passing check: issue 5's "every M of 1..64 >= 1.00x" at o.
Usage: plan_z2_from_e80b.py AB_DIR PLAN_IN PLAN_OUT
(The per-range loop and the unscored-range rule moved into plan_rule.move_ranges and
unscored_candidate after the call, in the session's review; on the call's files the rule prints the
same lines.)"""
import sys

from plan_rule import rule_main

L = 'splitk_mma_l2.rows64.split1'
RANGES = [('o', L + '.stages8', [L + '.stages8.wk2', L + '.wk2'], (17, 32), (17, 20, 24, 28, 32)),
          ('o', 'baseline', [L + '.stages8.wk2', L + '.stages8'], (33, 64), (33, 40, 48, 56, 64))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e80b', 'E80b', RANGES, 'Z2')
