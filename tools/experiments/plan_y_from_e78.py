#!/usr/bin/env python3
"""Session 22, call 2: plan Y = plan X with ranges moved by the call's same-binary A/Bs (E78, E79), by
rules fixed before the run. gain = min(ratio gain, time gain) - 1 over the two runs of each config
(plan_rule.gain), against plan X's config at that M (each case's first config).
Per candidate (plan_rule.span_runs): the measured M it gains >= 0 at form runs of neighbours; the run holding
the most scored M (1, 8, 16, 32, 128, 256) with a gain >= +1 % (at least one; on a tie the lower
run) is the candidate's span, from its first to its last measured M, or to the incumbent range's edge
where the run reaches the first / last measured M; and only with a passing `projkit check` over the
incumbent range (check-<config>.txt). Where several candidates of
one incumbent range qualify, the one with the largest mean gain over the scored M of its span moves.
- E78 (fewer, longer slab streams; wgmma_tma bm64 on the slabs): qkv M 2..64 (split4 at 8 stages)
  against split3 at 8 / 9 stages, split4 at 9, split2 at 8 / 9 (measured at 2 / 8 / 16 / 32 / 64);
  pooler M 6..64 (split2 at 8) against split2 at 9, split1 at 8 / 9 (6 / 8 / 16 / 32 / 64);
  unpooler M 9..64 (split2 at 8) against split2 at 9, split1 at 8 / 9 (9 / 16 / 32 / 64).
- E79 (o from W's k-block slabs, splitk_mma_l2 wsl1): o M 1..16 (rows64.split1) against
  rows64.split1.wsl1 and rows64.split1.stages8.wsl1 (1 / 4 / 8 / 12 / 16); o M 17..32
  (rows64.split1.stages8) against rows64.split1.stages8.wsl1 (17 / 24 / 32).
Usage: plan_y_from_e78.py AB_DIR PLAN_IN PLAN_OUT   (prints the decision; PLAN_OUT is written only
when the plan changes)
(The span and the candidate loop moved into plan_rule.py (span_runs, best_candidate) after the
call, in the session's review; on the call's files the rule prints the same lines.)"""
import json, sys

from plan_rule import best_candidate, load_ab, set_range, write_plan

W = 'wgmma_tma.bn128.bm64.'


def slab(split, stages, ki=True):
    return f'{W}split{split}.mc1.stages{stages}.xfit1.red5.rk1{".ki1" if ki else ""}.wsl1'


L2 = 'splitk_mma_l2.rows64.split1'
RANGES = [  # (label, family, incumbent, candidates, incumbent range, measured M)
    ('E78 qkv', 'qkv', slab(4, 8), [slab(3, 8), slab(3, 9), slab(4, 9), slab(2, 8), slab(2, 9)], (2, 64),
     (2, 8, 16, 32, 64)),
    ('E78 pooler', 'pooler', slab(2, 8), [slab(2, 9), slab(1, 8, False), slab(1, 9, False)], (6, 64),
     (6, 8, 16, 32, 64)),
    ('E78 unpooler', 'unpooler', slab(2, 8), [slab(2, 9), slab(1, 8, False), slab(1, 9, False)], (9, 64),
     (9, 16, 32, 64)),
    ('E79 o 1..16', 'o', L2, [L2 + '.wsl1', L2 + '.stages8.wsl1'], (1, 16), (1, 4, 8, 12, 16)),
    ('E79 o 17..32', 'o', L2 + '.stages8', [L2 + '.stages8.wsl1'], (17, 32), (17, 24, 32)),
]


if __name__ == '__main__':
    ab_dir, plan_in, plan_out = sys.argv[1:4]
    ab = load_ab(ab_dir, 'e78')
    ab.update(load_ab(ab_dir, 'e79'))
    plan = json.load(open(plan_in))
    changed = False
    for label, fam, inc, cands, rng, measured in RANGES:
        pick = best_candidate(ab, ab_dir, label, fam, inc, cands, rng, measured)
        if pick:
            set_range(plan, fam, pick[1], pick[2], pick[0])
            changed = True
    if changed:
        write_plan(plan, plan_out)
        print(f'plan Y written to {plan_out}')
