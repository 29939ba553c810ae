#!/usr/bin/env python3
"""Session 27, call 5's rule (fixed before the call): plan Z6c = plan Z6 with qkv's other slab ranges
on wsl2.ls1 too, so that qkv keeps one copy of its slabs instead of two. Plan Z6 runs qkv M 17..64 on
bm64.split4.ki1.wsl2.ls1 (pre-swizzled slabs `wgmma_tma.kslabs.sw128`) and M 2..16 (bm64.split4) and
65..83 (bm128.split4) on .ki1.wsl1 (slabs `wgmma_tma.kslabs`): two 37.7 MB copies of W per qkv
Projection. E89c instantiates wsl2.ls1 at bm 128. The move is for memory, not speed, so a tie
suffices, and it is all or nothing (one range left on wsl1 keeps both copies): every measured M (2,
4, 8, 12, 16 on bm64; 65, 72, 80, 83 on bm128; ab_configs.sh tag e89c, 200 pairs, .wsl1 first) must
gain >= -0.5 % (min(ratio gain, time gain)), and both checks must pass. The ship verdict
(call5_s27.sh) is tie-tolerant for the same reason: mean score change >= -0.3 % and qkv M 8 / 16
each >= -0.5 % over three plan A/B rounds.
Usage: plan_z6c_from_e89c.py AB_DIR PLAN_IN PLAN_OUT"""
import json, os, sys

from plan_rule import check_passed, gain, load_ab, pct, set_range, write_plan

W64 = 'wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1'
W128 = 'wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1'
RANGES = [(W64, (2, 16), (2, 4, 8, 12, 16)), (W128, (65, 83), (65, 72, 80, 83))]

if __name__ == '__main__':
    ab_dir, plan_in, plan_out = sys.argv[1:4]
    plan = json.load(open(plan_in))
    ab = load_ab(ab_dir, 'e89c')
    ok = True
    for w, rng, measured in RANGES:
        inc, cand = w + '.wsl1', w + '.wsl2.ls1'
        gains = {}
        for m in measured:
            v = ab.get(('qkv', m), {})
            gains[m] = gain(v[inc], v[cand]) if inc in v and cand in v else None
        print(f'E89c qkv {rng[0]}..{rng[1]} wsl2.ls1 against wsl1: ' + ', '.join(f'M {m} {pct(g)}' for m, g in gains.items()))
        ok = ok and all(g is not None and g >= -0.005 for g in gains.values())
        ok = ok and check_passed(os.path.join(ab_dir, f'check-{cand}.txt'))
    if not ok:
        print('a measured M loses more than 0.5 %, or a check did not pass: plan unchanged')
        sys.exit(0)
    for w, rng, _ in RANGES:
        set_range(plan, 'qkv', rng[0], rng[1], w + '.wsl2.ls1')
    write_plan(plan, plan_out)
    print(f'plan Z6c written to {plan_out}')
