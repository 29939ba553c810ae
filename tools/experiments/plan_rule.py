"""Shared by the plan rules of sessions 20 (plan_v_from_e69.py, plan_w_from_e70.py,
plan_x_from_e71.py) and 21 (plan_w_from_e72.py, plan_x_from_e74.py): read a same-binary A/B's bench
JSONs, read a `projkit check` verdict, move an M range of a plan to another method, write a plan in
the layout of plans/h200.json."""
import glob, json, os, statistics as st


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
