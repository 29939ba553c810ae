#!/usr/bin/env python3
"""Session 22: plan Y = plan X with ranges moved by call 1's same-binary A/Bs (E76, E77), by rules
fixed before the run. gain = min(ratio gain, time gain) - 1 over the two runs of each config
(plan_rule.gain), against plan X's config at that M (the case's first config).
One rule for every candidate (E76's, as its script states it): the candidate takes the M range
[lo, hi] spanned by the scored M (1, 8, 16, 32, 128, 256) it gains >= +1 % at, widened to the
neighbouring measured M on each side where it gains >= 0; a span that reaches the lowest / highest
measured M (the incumbent range's edges) extends to that range's edge. Every measured M inside
[lo, hi] must gain >= 0, else the plan stays for that candidate. A candidate with no failed
`projkit check` (call 1 runs one per new config over its range) only.
- E76: router_hilo_stream.kw8.wn1.zw1 against kw8.wn2.zw1 (plan X, M 4..32), measured at 4 / 8 / 16 / 24 / 32.
- E77a: qkv wgmma_tma bm64.split7.rk1.ki1.wsl1 against bm64.split4.rk1.ki1.wsl1 (M 2..64), measured at 2 / 8 / 16 / 32 / 64.
- E77b: qkv bm128.split7.rk1.ki1.wsl1 against bm128.split4.rk1.ki1.wsl1 (M 65..128), measured at 65 / 96 / 128.
- E77c: pooler bm64.split4.rk1.ki1.wsl1 against bm64.split2.rk1.ki1.wsl1 (M 6..64), measured at 6 / 8 / 16 / 32 / 64.
Usage: plan_y_from_e77.py AB_DIR PLAN_IN PLAN_OUT   (AB_DIR holds b-e76-*.json, b-e77-*.json and
check-*.txt; prints the decision; PLAN_OUT is written only when the plan changes)"""
import json, os, sys

from plan_rule import SCORED, check_passed, gain, load_ab, pct, set_range, write_plan

W = 'wgmma_tma.bn128.'
CANDIDATES = [  # (label, family, incumbent, candidate, incumbent range, measured M)
    ('E76', 'router', 'router_hilo_stream.kw8.wn2.zw1', 'router_hilo_stream.kw8.wn1.zw1', (4, 32), (4, 8, 16, 24, 32)),
    ('E77a', 'qkv', W + 'bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1',
     W + 'bm64.split7.mc1.stages8.xfit1.red5.rk1.ki1.wsl1', (2, 64), (2, 8, 16, 32, 64)),
    ('E77b', 'qkv', W + 'bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1',
     W + 'bm128.split7.mc1.stages6.xfit1.red5.rk1.ki1.wsl1', (65, 128), (65, 96, 128)),
    ('E77c', 'pooler', W + 'bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1',
     W + 'bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1', (6, 64), (6, 8, 16, 32, 64)),
]


def span(gains, measured, rng):
    """The rule above: (lo, hi) or None. gains: {m: gain or None}."""
    if any(gains[m] is None for m in measured):
        return None
    wins = [m for m in measured if m in SCORED and gains[m] >= 0.01]
    if not wins:
        return None
    i, j = measured.index(min(wins)), measured.index(max(wins))
    if i > 0 and gains[measured[i - 1]] >= 0:
        i -= 1
    if j < len(measured) - 1 and gains[measured[j + 1]] >= 0:
        j += 1
    if any(gains[m] < 0 for m in measured[i:j + 1]):
        return None
    lo = rng[0] if i == 0 else measured[i]
    hi = rng[1] if j == len(measured) - 1 else measured[j]
    return lo, hi


if __name__ == '__main__':
    ab_dir, plan_in, plan_out = sys.argv[1:4]
    ab = load_ab(ab_dir, 'e76')
    ab.update(load_ab(ab_dir, 'e77'))
    plan = json.load(open(plan_in))
    changed = False
    for label, fam, inc, cand, rng, measured in CANDIDATES:
        gains = {}
        for m in measured:
            v = ab.get((fam, m), {})
            gains[m] = gain(v[inc], v[cand]) if inc in v and cand in v else None
        print(f'{label} {fam} {cand}: ' + ', '.join(f'M {m} {pct(g)}' for m, g in gains.items()))
        chk = os.path.join(ab_dir, f'check-{cand}.txt')
        if not check_passed(chk):
            print(f'{label}: keep (no passing check in {os.path.basename(chk)})')
            continue
        s = span(gains, list(measured), rng)
        if s is None:
            print(f'{label}: keep plan X')
            continue
        print(f'{label}: adopt')
        set_range(plan, fam, s[0], s[1], cand)
        changed = True
    if changed:
        write_plan(plan, plan_out)
        print(f'plan Y written to {plan_out}')
