"""Shared by the plan rules of sessions 20 (plan_v_from_e69.py, plan_w_from_e70.py,
plan_x_from_e71.py), 21 (plan_w_from_e72.py, plan_x_from_e74.py) and 22 (plan_y_from_e77.py,
plan_y_from_e78.py, plan_z_from_e80.py) and 23 (plan_aa_from_e81.py, plan_z2_from_e80b.py,
plan_z2_from_e82.py): read a same-binary A/B's bench JSONs, read a `projkit check` verdict, move an M
range of a plan to another method, write a plan in the layout of plans/h200.json; session 22's
candidate span and best-candidate choice; session 23's rule for a range without scored M; session
30's A/B of two plans that prepare the same methods (matched_plans)."""
import glob, json, os, statistics as st

SCORED = (1, 8, 16, 32, 128, 256)  # the default workload's loads


def load_ab(ab_dir, tag):
    """{(family, m): {method: [(paired ratio, candidate us), ...]}} from ab_configs.sh's b-TAG-*.json."""
    res = {}
    for f in glob.glob(os.path.join(ab_dir, f'b-{tag}-*.json')):
        c = json.load(open(f))['cases'][0]
        res.setdefault((c['family'], c['m']), {}).setdefault(c['method'], []).append((c['ratio'], c['cand_us']))
    return res


def means(runs):
    """(mean paired ratio, mean candidate us) of one config's runs."""
    return st.mean(x[0] for x in runs), st.mean(x[1] for x in runs)


def gain(base_runs, new_runs):
    """min(ratio gain, time gain) of new against base: both must agree."""
    (rb, tb), (rn, tn) = means(base_runs), means(new_runs)
    return min(rn / rb, tb / tn) - 1


def check_passed(path):
    """True if the `projkit check` output at path ends with its PASS line."""
    lines = open(path).read().strip().splitlines() if os.path.exists(path) else []
    return bool(lines) and lines[-1].strip() == 'check: PASS'


def write_plan(plan, path):
    json.dump(plan, open(path, 'w'), indent=2)
    open(path, 'a').write('\n')


def pct(x):
    """A gain as a signed percentage, 'n/a' for None."""
    return 'n/a' if x is None else f'{100 * x:+.1f} %'


def set_range(plan, fam, lo, hi, method):
    """Give M [lo, hi] of fam to method, splitting the ranges it overlaps (the split parts keep only
    m and method); print the move."""
    out = []
    for r in plan['families'][fam]:
        a, b = r['m']
        if b < lo or a > hi:
            out.append(r)
            continue
        if a < lo:
            out.append({'m': [a, lo - 1], 'method': r['method']})
        if b > hi:
            out.append({'m': [hi + 1, b], 'method': r['method']})
    out.append({'m': [lo, hi], 'method': method})
    plan['families'][fam] = sorted(out, key=lambda r: r['m'][0])
    print(f'  {fam} M {lo}..{hi} -> {method}')


def span_runs(gains, measured, rng):
    """Session 22's span (plan_y_from_e78.py, plan_z_from_e80.py): the measured M a candidate gains
    >= 0 at form runs of neighbours; the run holding the most scored M with a gain >= +1 % (at least
    one; on a tie the lower run) is the span, from its first to its last measured M, or to the
    incumbent range's edge where the run reaches the first / last measured M. (lo, hi) or None.
    gains: {m: gain or None}, measured: ascending M, rng: the incumbent range."""
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


def best_candidate(ab, ab_dir, label, fam, inc, cands, rng, measured):
    """Of the candidates against incumbent inc over the range rng, the one whose span_runs holds the
    largest mean gain over its scored M, among those with a passing check (AB_DIR/check-<config>.txt);
    prints each candidate's gains and the choice. (candidate, lo, hi) or None."""
    best = None
    for cand in cands:
        gains = {}
        for m in measured:
            v = ab.get((fam, m), {})
            gains[m] = gain(v[inc], v[cand]) if inc in v and cand in v else None
        print(f'{label} {cand}: ' + ', '.join(f'M {m} {pct(g)}' for m, g in gains.items()))
        if not check_passed(os.path.join(ab_dir, f'check-{cand}.txt')):
            print('  no passing check: not a candidate')
            continue
        s = span_runs(gains, list(measured), rng)
        if s is None:
            continue
        score = st.mean(gains[m] for m in measured if m in SCORED and s[0] <= m <= s[1])
        print(f'  qualifies for M {s[0]}..{s[1]} (mean scored gain {pct(score)})')
        if best is None or score > best[0]:
            best = (score, cand, s)
    if best is None:
        print(f'{label}: keep plan X')
        return None
    print(f'{label}: adopt {best[1]}')
    return best[1], best[2][0], best[2][1]


def unscored_candidate(ab, ab_dir, fam, inc, cands, rng, measured):
    """Session 23's rule for a range that holds no scored M (best_candidate's span needs one): the
    candidate that gains >= +1 % at every measured M, with a passing check (AB_DIR/check-<config>.txt);
    the largest mean gain if several do; prints each verdict. (candidate, lo, hi) or None."""
    best = None
    for cand in cands:
        v = [ab.get((fam, m), {}) for m in measured]
        g = [gain(x[inc], x[cand]) if inc in x and cand in x else None for x in v]
        ok = all(x is not None and x >= 0.01 for x in g) and check_passed(os.path.join(ab_dir, f'check-{cand}.txt'))
        print(f'  unscored range, {cand}: every M >= +1 %: {ok}' + (f' (mean {pct(sum(g) / len(g))})' if ok else ''))
        if ok and (best is None or sum(g) / len(g) > best[0]):
            best = (sum(g) / len(g), cand)
    return (best[1], rng[0], rng[1]) if best else None


def move_ranges(ab, ab_dir, plan, label, ranges, whole=()):
    """Session 23's rules: for each (family, incumbent, candidates, (lo, hi), measured M) of ranges,
    best_candidate, or for a range with no scored M unscored_candidate; the pick's span moves in
    plan (set_range). A range whose (family, lo, hi) is in `whole` moves only as a whole (session
    32, E97: a partial move of a slab range would keep both slab copies). Returns whether the plan
    changed."""
    changed = False
    for fam, inc, cands, rng, measured in ranges:
        tag = f'{label} {fam} {rng[0]}..{rng[1]}'
        pick = best_candidate(ab, ab_dir, tag, fam, inc, cands, rng, measured)
        if pick is None and not any(rng[0] <= m <= rng[1] for m in SCORED):
            pick = unscored_candidate(ab, ab_dir, fam, inc, cands, rng, measured)
        if pick and (fam, *rng) in whole and (pick[1], pick[2]) != tuple(rng):
            print(f'{tag}: span {pick[1]}..{pick[2]} is not the whole range (both slab copies): keep plan X')
            pick = None
        if pick:
            set_range(plan, fam, pick[1], pick[2], pick[0])
            changed = True
    return changed


def rule_main(argv, tag, label, ranges, name, whole=()):
    """The command line of session 23's rules: RULE.py AB_DIR PLAN_IN PLAN_OUT; move_ranges over
    the A/B of ab_configs.sh tag `tag` (with `whole`), and the plan written (as plan `name`) only if
    it changed."""
    ab_dir, plan_in, plan_out = argv[1:4]
    plan = json.load(open(plan_in))
    if move_ranges(load_ab(ab_dir, tag), ab_dir, plan, label, ranges, whole):
        write_plan(plan, plan_out)
        print(f'plan {name} written to {plan_out}')


def cases_of(ranges):
    """ab_configs.sh's CASES words for move_ranges' ranges: FAMILY:M:INCUMBENT,CANDIDATE.. per measured M
    (the incumbent first, the A/B's reference)."""
    return [f'{fam}:{m}:{",".join([inc] + list(cands))}' for fam, inc, cands, _, ms in ranges for m in ms]


def rule_cli(argv, tag, label, ranges, name, whole=()):
    """A session-23 rule's whole command line (session 33): `RULE.py --cases` prints the A/B's CASES
    words (cases_of), `RULE.py AB_DIR PLAN_IN PLAN_OUT` runs rule_main."""
    if argv[1:] == ['--cases']:
        print(' '.join(cases_of(ranges)))
    else:
        rule_main(argv, tag, label, ranges, name, whole)


def matched_plans(ab_dir, a, b, label):
    """Session 30's context-matched A/B (ledger P30): `projkit bench --plan` JSONs
    AB_DIR/ctx-{a}1, {b}1, {b}2, {a}2 .json of plans a and b, which prepare the same methods and differ
    in which one runs. Prints plan b against plan a per M (mean time, baseline and paired ratio of
    the two runs of each) and returns {m: min(ratio gain, time gain)}."""
    runs = {}
    for r in (f'{a}1', f'{b}1', f'{b}2', f'{a}2'):
        for c in json.load(open(os.path.join(ab_dir, f'ctx-{r}.json')))['cases']:
            runs.setdefault((r[:-1], c['m']), []).append((c['ratio'], c['cand_us'], c['base_us'], c['method']))
    gains = {}
    for m in sorted({key[1] for key in runs}):
        x, y = runs[(a, m)], runs[(b, m)]
        rx, tx, bx = (st.mean(v[i] for v in x) for i in range(3))
        ry, ty, by = (st.mean(v[i] for v in y) for i in range(3))
        gains[m] = min(ry / rx, tx / ty) - 1
        print(f'{label} ctx unpooler M {m}: {a} {x[0][3]} {tx:.2f} us (base {bx:.2f}, ratio {rx:.3f}) | '
              f'{b} {y[0][3]} {ty:.2f} us (base {by:.2f}, ratio {ry:.3f}) | ratio {pct(ry / rx - 1)}, '
              f'time {pct(tx / ty - 1)}')
    return gains
