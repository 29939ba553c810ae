#!/usr/bin/env python3
"""Session 22, call 2: plan Y = plan X with ranges moved by the call's same-binary A/Bs (E78, E79), by
rules fixed before the run. gain = min(ratio gain, time gain) - 1 over the two runs of each config
(plan_rule.gain), against plan X's config at that M (each case's first config).
Per candidate (span below): the measured M it gains >= 0 at form runs of neighbours; the run holding
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
when the plan changes)"""
import json, os, statistics as st, sys

from plan_rule import check_passed, gain, load_ab, pct, set_range, write_plan
from plan_y_from_e77 import SCORED


def span(gains, measured, rng):
    """The rule above: (lo, hi) or None. gains: {m: gain or None}, measured: ascending M."""
    if any(gains[m] is None for m in measured):
        return None
    runs, run = [], []
    for m in measured:
        if gains[m] >= 0:
            run.append(m)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    wins = lambda r: sum(1 for m in r if m in SCORED and gains[m] >= 0.01)
    runs = [r for r in runs if wins(r) > 0]
    if not runs:
        return None
    r = max(runs, key=wins)  # max keeps the first (lowest) run on a tie
    return (rng[0] if r[0] == measured[0] else r[0]), (rng[1] if r[-1] == measured[-1] else r[-1])

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
        best = None
        for cand in cands:
            gains = {}
            for m in measured:
                v = ab.get((fam, m), {})
                gains[m] = gain(v[inc], v[cand]) if inc in v and cand in v else None
            print(f'{label} {cand}: ' + ', '.join(f'M {m} {pct(g)}' for m, g in gains.items()))
            if not check_passed(os.path.join(ab_dir, f'check-{cand}.txt')):
                print(f'  no passing check: not a candidate')
                continue
            s = span(gains, list(measured), rng)
            if s is None:
                continue
            score = st.mean(gains[m] for m in measured if m in SCORED and s[0] <= m <= s[1])
            print(f'  qualifies for M {s[0]}..{s[1]} (mean scored gain {pct(score)})')
            if best is None or score > best[0]:
                best = (score, cand, s)
        if best is None:
            print(f'{label}: keep plan X')
            continue
        print(f'{label}: adopt {best[1]}')
        set_range(plan, fam, best[2][0], best[2][1], best[1])
        changed = True
    if changed:
        write_plan(plan, plan_out)
        print(f'plan Y written to {plan_out}')
