"""Session 36, call 3: the H100 plan's leads from call 2's tune at the scored loads, and their rule.

Call 2 (tools/experiments/call2_s36.sh) ported plans/h200.json to the H100 80GB HBM3 and pruned it
by a sweep (plans/h100-80gb-hbm3.json). Its `projkit tune` at M 1, 8, 16, 32, 128, 256, with that
plan as incumbent, found listed configs ahead of the plan's method by >= 1 % in both paired ratio
and time (results/h100/session36/c2-port-prune/work.tar.xz, tune6-summary.txt). MOVES below puts
each one on the plan range holding its M, fixed before call 3 measures them:

  build PLAN OUT            PLAN with every move applied (v3)
  decide OLD NEW SW_OLD SW_NEW OUT
      The rule: a move stays if, over the M of its range, the same call's sweeps (300 pairs) of the
      two plans give median(new) >= median(old) + 0.005 and min(new) >= 0.98; otherwise the range
      goes back to OLD's method (or to the baseline where OLD has no range). Prints each decision.
"""
import argparse, json, statistics as st, sys

# (family, lo, hi, new method, call 2's gain at the scored M: ratio / time %)
MOVES = [
    ('pooler', 1, 1, 'gemv_stream.rows4.warps8.lp1', 'M 1 +2.2 / +2.3'),
    ('pooler', 6, 64, 'wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1.ls1',
     'M 8 / 16 / 32 +1.8 / +1.4, +1.3 / +1.6, +1.3 / +1.7'),
    ('pooler', 65, 128, 'wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1', 'M 128 +4.9 / +5.0'),
    ('qkv', 84, 128, 'wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl2.ls1', 'M 128 +5.1 / +5.3'),
    ('qkv', 193, 256, 'wgmma_tma.bn128.bm128.split3.mc1.stages6.xfit1.red5.rk1.ki1.wmc1', 'M 256 +8.5 / +8.6'),
    ('router', 32, 32, 'router_hilo_stream.kw4.wn2.zw1', 'M 32 +1.6 / +1.0'),
    ('o', 193, 256, 'wgmma_tma.bn128.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1', 'M 256 +4.3 against the baseline'),
]


def method_at(plan, fam, m):
    for r in plan['families'].get(fam, []):
        if r['m'][0] <= m <= r['m'][1]:
            return r['method']
    return 'baseline'


def set_range(plan, fam, lo, hi, method):
    """plan with family fam's M lo..hi on method (ranges cut around it; 'baseline' leaves a gap)."""
    out = []
    for r in plan['families'].get(fam, []):
        a, b = r['m']
        if b < lo or a > hi:
            out.append(r)
            continue
        if a < lo:
            out.append(dict(r, m=[a, lo - 1]))
        if b > hi:
            out.append(dict(r, m=[hi + 1, b]))
    if method != 'baseline':
        out.append({'m': [lo, hi], 'method': method})
    plan['families'][fam] = sorted(out, key=lambda r: r['m'][0])
    return plan


def build(a):
    p = json.load(open(a.plan))
    for fam, lo, hi, meth, why in MOVES:
        old = {method_at(p, fam, m) for m in range(lo, hi + 1)}
        assert len(old) == 1, (fam, lo, hi, old)  # each move replaces one method over its whole range
        print(f'{fam:9s} M {lo:3d}..{hi:3d}: {old.pop()} -> {meth} ({why})')
        set_range(p, fam, lo, hi, meth)
    json.dump(p, open(a.out, 'w'), indent=2)
    print(f'{len(MOVES)} moves -> {a.out}')


def decide(a):
    old, new = json.load(open(a.old)), json.load(open(a.new))
    r_old = {(c['family'], c['m']): c['ratio'] for c in json.load(open(a.sw_old))['cases']}
    r_new = {(c['family'], c['m']): c['ratio'] for c in json.load(open(a.sw_new))['cases']}
    final, kept = new, 0
    for fam, lo, hi, meth, _ in MOVES:
        ms = range(lo, hi + 1)
        mo, mn = st.median(r_old[(fam, m)] for m in ms), st.median(r_new[(fam, m)] for m in ms)
        low = min(r_new[(fam, m)] for m in ms)
        keep = mn >= mo + 0.005 and low >= 0.98
        kept += keep
        back = method_at(old, fam, lo)
        print(f'{fam:9s} M {lo:3d}..{hi:3d} median old {mo:.3f} new {mn:.3f} ({100 * (mn / mo - 1):+.1f} %), '
              f'min new {low:.3f}: {"kept" if keep else "reverted to " + back} ({meth})')
        if not keep:
            set_range(final, fam, lo, hi, back)
    json.dump(final, open(a.out, 'w'), indent=2)
    print(f'{kept} of {len(MOVES)} moves kept -> {a.out}')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    b = sub.add_parser('build')
    b.add_argument('plan'); b.add_argument('out')
    d = sub.add_parser('decide')
    for n in ('old', 'new', 'sw_old', 'sw_new', 'out'):
        d.add_argument(n)
    args = ap.parse_args()
    build(args) if args.cmd == 'build' else decide(args)


if __name__ == '__main__':
    sys.exit(main())
