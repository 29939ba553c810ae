#!/usr/bin/env python3
"""Session 32, call 9's rule (fixed before the call): E99, the W pairs' shifted x box (xsh1) where the
pair's second token tile is partial. xsh1 changes nothing but the last tile's x rows (the same work,
every box inside x), so it can only tie or gain; it ties where that tile is nearly full. Ranges
(all unscored; the scored M 128 / 256 fill their tiles, so xsh1 cannot move them):
- on the pair now (incumbent: its wmc1 base): qkv M 84..127, o M 72..127, unpooler M 88..117 and
  224..255. Tie-tolerant rule (E89c's kind: no memory or scored M at stake): the whole range moves
  if xsh1's gain, min(ratio gain, time gain), is >= -0.5 % at every measured M and >= +1 % in the
  mean over them, with a passing `projkit check`.
- on the baseline now: unpooler M 193..207 and 209..223 (M 208 keeps cuBLASLt). Session 23's rule
  for an unscored range (plan_rule.unscored_candidate): every measured M >= +1 %.
Session 32's review: the baseline ranges go through plan_rule.move_ranges (the same rule; on call 9's
files the same plan, its lines worded as move_ranges words them).
Usage: plan_z10c_from_e99.py AB_DIR PLAN_IN PLAN_OUT"""
import json
import os
import statistics as st
import sys

from plan_rule import check_passed, gain, load_ab, move_ranges, pct, set_range, write_plan

W = 'wgmma_tma.bn128'
P64_1 = f'{W}.bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1'
P64_3 = f'{W}.bm64.split3.mc1.stages8.xfit1.red5.rk1.ki1.wmc1'
P128_1 = f'{W}.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1'
PAIR_RANGES = [  # (family, incumbent, (lo, hi), measured M); the candidate is incumbent + '.xsh1'
    ('qkv', P64_3, (84, 127), (84, 100, 116, 127)),
    ('o', P64_1, (72, 127), (72, 100, 127)),
    ('unpooler', P64_1, (88, 117), (88, 104, 117)),
    ('unpooler', P128_1, (224, 255), (225, 240, 255)),
]
BASE_RANGES = [  # (family, (lo, hi), measured M): the baseline against P128_1 + '.xsh1'
    ('unpooler', (193, 207), (193, 200, 207)),
    ('unpooler', (209, 223), (209, 216, 223)),
]
CASES = ([f'{fam}:{m}:{inc},{inc}.xsh1' for fam, inc, _, ms in PAIR_RANGES for m in ms] +
         [f'{fam}:{m}:baseline,{P128_1}.xsh1' for fam, _, ms in BASE_RANGES for m in ms])


def main(ab_dir, plan_in, plan_out):
    ab, plan, changed = load_ab(ab_dir, 'e99'), json.load(open(plan_in)), False
    for fam, inc, (lo, hi), ms in PAIR_RANGES:
        cand = inc + '.xsh1'
        g = {m: gain(ab[(fam, m)][inc], ab[(fam, m)][cand]) if inc in ab.get((fam, m), {}) and
             cand in ab.get((fam, m), {}) else None for m in ms}
        ok = (all(v is not None and v >= -0.005 for v in g.values()) and st.mean(g.values()) >= 0.01 and
              check_passed(os.path.join(ab_dir, f'check-{cand}.txt')))
        print(f'E99 {fam} {lo}..{hi} {cand}: ' + ', '.join(f'M {m} {pct(v)}' for m, v in g.items()) +
              f': {"move" if ok else "keep plan X"}')
        if ok:
            set_range(plan, fam, lo, hi, cand)
            changed = True
    # the baseline ranges: plan_rule.move_ranges (no scored M: session 23's unscored rule)
    base = [(fam, 'baseline', [P128_1 + '.xsh1'], rng, ms) for fam, rng, ms in BASE_RANGES]
    changed = move_ranges(ab, ab_dir, plan, 'E99', base) or changed
    if changed:
        write_plan(plan, plan_out)
        print(f'plan Z10c written to {plan_out}')


if __name__ == '__main__':
    if sys.argv[1:] == ['--cases']:
        print(' '.join(CASES))
    else:
        main(*sys.argv[1:4])
