#!/usr/bin/env python3
"""Session 22, call 4: plan Z = plan X with o's ranges moved by the call's same-binary A/B (E80:
splitk_mma_l2 with two warps per 16-row slab, wk2), by the rule of plan_y_from_e78.py, fixed before
the run: per candidate its span (plan_rule.span_runs: the run of measured M it gains >= 0 at that
holds the most scored M with a gain >= +1 %, to the incumbent range's edge where it reaches the
first / last measured M), only with a passing check over o M 1..32 (check-<config>.txt); of the
candidates of one incumbent range, the one with the largest mean gain over the scored M of its
span moves. gain = min(ratio gain, time gain) - 1 over the two runs of each config, against plan
X's config (each case's first config).
- o M 1..16 (rows64.split1) against rows64.split1.wk2 and rows64.split1.stages8.wk2, measured at
  1 / 4 / 8 / 9 / 12 / 16;
- o M 17..32 (rows64.split1.stages8) against rows64.split1.stages8.wk2 and rows64.split1.wk2,
  measured at 17 / 24 / 32.
Usage: plan_z_from_e80.py AB_DIR PLAN_IN PLAN_OUT
(The span and the candidate loop moved into plan_rule.py (span_runs, best_candidate) after the
call, in the session's review; on the call's files the rule prints the same lines.)"""
import json, sys

from plan_rule import best_candidate, load_ab, set_range, write_plan

L = 'splitk_mma_l2.rows64.split1'
RANGES = [(L, [L + '.wk2', L + '.stages8.wk2'], (1, 16), (1, 4, 8, 9, 12, 16)),
          (L + '.stages8', [L + '.stages8.wk2', L + '.wk2'], (17, 32), (17, 24, 32))]

if __name__ == '__main__':
    ab_dir, plan_in, plan_out = sys.argv[1:4]
    ab = load_ab(ab_dir, 'e80')
    plan = json.load(open(plan_in))
    changed = False
    for inc, cands, rng, measured in RANGES:
        pick = best_candidate(ab, ab_dir, f'E80 o {rng[0]}..{rng[1]}', 'o', inc, cands, rng, measured)
        if pick:
            set_range(plan, 'o', pick[1], pick[2], pick[0])
            changed = True
    if changed:
        write_plan(plan, plan_out)
        print(f'plan Z written to {plan_out}')
