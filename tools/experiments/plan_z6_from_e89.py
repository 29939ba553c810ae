#!/usr/bin/env python3
"""Session 27, call 2's rule (fixed before the call): plan Z6 from plan Z5b and E89's A/B
(ab_configs.sh tag e89b, same binary, 200 pairs, the plan's method first).

- qkv M 17..64, pooler M 6..64, unpooler M 9..64: E85's wsl2.ls1 (W's pre-swizzled slabs by bulk
  copy, lean start) against the plan's .ki1.wsl1 on the same tile, by session 22's span rule
  (plan_rule.best_candidate: a run of measured M with gain >= 0 holding a scored M at >= +1 %; gain
  = min(ratio gain, time gain)). qkv starts at 17: E85's plan A/B read M 16 at +0.2 % (a tie).
- o M 33..64 and 65..71 (on the baseline in plan Z5b; unscored): the bm64 wmc1 pair at split 1.
  Of each range's measured M (ascending), the longest tail in which every M gains >= +1 % against
  the baseline moves, from its first measured M to the range's top; nothing moves if the top M
  does not gain. E89 (call 1): +2.3 / +1.4 % at M 48 / 64, -4.5 % at M 32 against splitk_mma_l2.
Every candidate needs a passing `projkit check` (AB_DIR/check-<config>.txt).
Usage: plan_z6_from_e89.py AB_DIR PLAN_IN PLAN_OUT"""
import json, os, sys

from plan_rule import check_passed, gain, load_ab, move_ranges, pct, set_range, write_plan

W = 'wgmma_tma.bn128'


def cfg(bm, split, stages, tail):
    return f'{W}.bm{bm}.split{split}.mc1.stages{stages}.xfit1.red5.rk1{tail}'


WSL = [('qkv', cfg(64, 4, 8, '.ki1.wsl1'), [cfg(64, 4, 8, '.ki1.wsl2.ls1')], (17, 64), (17, 24, 32, 48, 64)),
       ('pooler', cfg(64, 2, 8, '.ki1.wsl1'), [cfg(64, 2, 8, '.ki1.wsl2.ls1')], (6, 64), (8, 16, 32, 64)),
       ('unpooler', cfg(64, 2, 8, '.ki1.wsl1'), [cfg(64, 2, 8, '.ki1.wsl2.ls1')], (9, 64), (16, 32, 64))]
PAIR = cfg(64, 1, 8, '.ki1.wmc1')
O_RANGES = [((33, 64), (33, 36, 40, 44, 48, 56, 64)), ((65, 71), (65, 68, 71))]


def o_tail(ab, ab_dir, plan):
    changed = False
    ok_check = check_passed(os.path.join(ab_dir, f'check-{PAIR}.txt'))
    for (lo, hi), measured in O_RANGES:
        gains = {}
        for m in measured:
            v = ab.get(('o', m), {})
            gains[m] = gain(v['baseline'], v[PAIR]) if 'baseline' in v and PAIR in v else None
        print(f'E89b o {lo}..{hi} wmc1 against the baseline: ' + ', '.join(f'M {m} {pct(g)}' for m, g in gains.items()))
        if not ok_check:
            print('  no passing check: keep')
            continue
        tail = []
        for m in reversed(measured):
            if gains[m] is None or gains[m] < 0.01:
                break
            tail.insert(0, m)
        if not tail:
            print('  the top M does not gain >= +1 %: keep')
            continue
        set_range(plan, 'o', tail[0], hi, PAIR)
        changed = True
    return changed


if __name__ == '__main__':
    ab_dir, plan_in, plan_out = sys.argv[1:4]
    plan = json.load(open(plan_in))
    ab = load_ab(ab_dir, 'e89b')
    changed = move_ranges(ab, ab_dir, plan, 'E89b', WSL)
    changed = o_tail(ab, ab_dir, plan) or changed
    if changed:  # (set_range keeps each family's ranges sorted)
        write_plan(plan, plan_out)
        print(f'plan Z6 written to {plan_out}')
    else:
        print('plan unchanged')
