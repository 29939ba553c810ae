"""Shared by the session-20 plan rules (plan_v_from_e69.py, plan_w_from_e70.py,
plan_x_from_e71.py): read a same-binary A/B's bench JSONs, read a `projkit check` verdict, write a
plan in the layout of plans/h200.json."""
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
