#!/usr/bin/env python3
"""Session 23, call 4: plan Z2 = plan Z with o's ranges moved by E82, splitk_mma_l2 with four warps
per 16-row slab (wk4), by the rule of plan_z2_from_e80b.py, fixed before the run: per incumbent
range (plan_rule.best_candidate) a candidate's span is the run of measured M it gains >= 0 at that
holds the most scored M with a gain >= +1 % (to the range's edge where the run reaches its first /
last measured M); only candidates with a passing `projkit check` over o M 1..64 count; of one
range's candidates the one with the largest mean gain over the scored M of its span moves. A range
with no scored M (o M 33..64, the baseline) moves only if a candidate gains >= +1 % at every
measured M. gain = min(ratio gain, time gain) - 1 over the two runs of each config (300 pairs
each), against the incumbent (each case's first config).
- o M 1..8 (rows64.split1) against wk4 / stages8.wk4, measured at 1 / 4 / 8;
- o M 9..16 (rows64.split1.wk2) against wk4 / stages8.wk4, measured at 9 / 12 / 16;
- o M 17..32 (rows64.split1.stages8) against stages8.wk4 / wk4, measured at 17 / 24 / 32;
- o M 33..64 (the baseline) against stages8.wk4 / wk4, measured at 33 / 40 / 48 / 56 / 64.
Usage: plan_z2_from_e82.py AB_DIR PLAN_IN PLAN_OUT"""
import sys

from plan_rule import rule_main

L = 'splitk_mma_l2.rows64.split1'
W4, S4 = [L + '.wk4', L + '.stages8.wk4'], [L + '.stages8.wk4', L + '.wk4']
RANGES = [('o', L, W4, (1, 8), (1, 4, 8)),
          ('o', L + '.wk2', W4, (9, 16), (9, 12, 16)),
          ('o', L + '.stages8', S4, (17, 32), (17, 24, 32)),
          ('o', 'baseline', S4, (33, 64), (33, 40, 48, 56, 64))]

if __name__ == '__main__':
    rule_main(sys.argv, 'e82', 'E82', RANGES, 'Z2')
