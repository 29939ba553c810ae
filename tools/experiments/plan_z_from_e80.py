#!/usr/bin/env python3
"""Session 22, call 4: plan Z = plan X with o's ranges moved by the call's same-binary A/B (E80:
splitk_mma_l2 with two warps per 16-row slab, wk2), by the rule of plan_y_from_e78.py, fixed before
the run: per candidate its span (plan_y_from_e78.span: the run of measured M it gains >= 0 at that
holds the most scored M with a gain >= +1 %, to the incumbent range's edge where it reaches the
first / last measured M), only with a passing check over o M 1..32 (check-<config>.txt); of the
candidates of one incumbent range, the one with the largest mean gain over the scored M of its
span moves. gain = min(ratio gain, time gain) - 1 over the two runs of each config, against plan
X's config (each case's first config).
- o M 1..16 (rows64.split1) against rows64.split1.wk2 and rows64.split1.stages8.wk2, measured at
  1 / 4 / 8 / 9 / 12 / 16;
- o M 17..32 (rows64.split1.stages8) against rows64.split1.stages8.wk2 and rows64.split1.wk2,
  measured at 17 / 24 / 32.
Usage: plan_z_from_e80.py AB_DIR PLAN_IN PLAN_OUT"""
import json, os, statistics as st, sys

from plan_rule import check_passed, gain, load_ab, pct, set_range, write_plan
from plan_y_from_e77 import SCORED
from plan_y_from_e78 import span

L = 'splitk_mma_l2.rows64.split1'
RANGES = [(L, [L + '.wk2', L + '.stages8.wk2'], (1, 16), (1, 4, 8, 9, 12, 16)),
          (L + '.stages8', [L + '.stages8.wk2', L + '.wk2'], (17, 32), (17, 24, 32))]

if __name__ == '__main__':
    ab_dir, plan_in, plan_out = sys.argv[1:4]
    ab = load_ab(ab_dir, 'e80')
    plan = json.load(open(plan_in))
    changed = False
    for inc, cands, rng, measured in RANGES:
        best = None
        for cand in cands:
            gains = {m: (gain(ab[('o', m)][inc], ab[('o', m)][cand])
                         if inc in ab.get(('o', m), {}) and cand in ab.get(('o', m), {}) else None) for m in measured}
            print(f'E80 o {rng[0]}..{rng[1]} {cand}: ' + ', '.join(f'M {m} {pct(g)}' for m, g in gains.items()))
            if not check_passed(os.path.join(ab_dir, f'check-{cand}.txt')):
                print('  no passing check: not a candidate')
                continue
            s = span(gains, list(measured), rng)
            if s is None:
                continue
            score = st.mean(gains[m] for m in measured if m in SCORED and s[0] <= m <= s[1])
            print(f'  qualifies for M {s[0]}..{s[1]} (mean scored gain {pct(score)})')
            if best is None or score > best[0]:
                best = (score, cand, s)
        if best is None:
            print(f'E80 o {rng[0]}..{rng[1]}: keep plan X')
            continue
        print(f'E80 o {rng[0]}..{rng[1]}: adopt {best[1]}')
        set_range(plan, 'o', best[2][0], best[2][1], best[1])
        changed = True
    if changed:
        write_plan(plan, plan_out)
        print(f'plan Z written to {plan_out}')
