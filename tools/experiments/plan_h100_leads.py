"""Session 36, calls 3 and 5: the H100 plan's leads from a tune, and their rule.

Call 2 (tools/experiments/call2_s36.sh) ported plans/h200.json to the H100 80GB HBM3 and pruned it
by a sweep (plans/h100-80gb-hbm3.json). Its `projkit tune` at M 1, 8, 16, 32, 128, 256, with that
plan as incumbent, found listed configs ahead of the plan's method by >= 1 % in both paired ratio
and time (results/h100/session36/c2-port-prune/work.tar.xz, tune6-summary.txt). MOVES below puts
each one on the plan range holding its M, fixed before call 3 measures them. MOVES_C5 does the same
for call 4's tune at nine unscored M (48, 96, 112, 144, 160, 176, 208, 224, 240; results/h100/
session36/c4-tune9/), fixed before call 5; --moves picks the list (default c3). --moves-file F reads the list from a JSON
file instead ([[family, lo, hi, method, why], ...]; session 37: the same rule for either chip's plan).

  build PLAN OUT            PLAN with every move applied
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

# call 4's leads (>= 1 % in both ratio and time at the M named). Memory: qkv's and the unpooler's wsl1
# ranges hold a k-block slab copy of W (37.7 / 67 MB) beside their wsl2 copy (docs/design.md).
MOVES_C5 = [
    ('qkv', 33, 64, 'wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl2.ls1', 'M 48 +2.4 / +2.1'),
    ('qkv', 129, 192, 'wgmma_tma.bn128.bm256.split7.mc1.stages4.xfit1.red5.rk1.ki1.wsl1',
     'M 144 / 160 / 176 +14.3 / +14.1, +12.9 / +13.2, +13.6 / +13.6'),
    ('pooler', 129, 192, 'wgmma_tma.bn128.bm192.split4.mc1.stages5.xfit1.red5.rk1.ki1.wsl1',
     'M 144 / 160 / 176 +4.4 / +4.3, +4.3 / +4.3, +4.4 / +4.4'),
    ('pooler', 193, 255, 'wgmma_tma.bn128.bm256.split4.mc1.stages4.xfit1.red5.rk1.ki1.wsl1',
     'M 208 / 224 / 240 +4.6 / +4.0, +1.8 / +3.4, +2.9 / +3.2'),
    ('unpooler', 88, 117, 'wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wsl1', 'M 96 / 112 +1.7 / +1.8, +1.0 / +0.9'),
    ('unpooler', 129, 192, 'wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5.rk1.wsl1',
     'M 144 / 160 / 176 +6.1 / +6.2, +6.8 / +6.9, +6.6 / +6.5'),
    ('unpooler', 208, 208, 'wgmma_tma.bn128.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.xsh1',
     'M 208 +12.4 / +12.3 against the baseline (the neighbours\' config)'),
    ('o', 33, 71, 'wgmma_tma.bn128.bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1', 'M 48 +5.7 / +6.1 against the baseline'),
    ('o', 129, 192, 'wgmma_tma.bn128.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.xsh1',
     'M 160 / 176 +1.9 / +2.1, +2.4 / +2.4 against the baseline'),
]


MOVE_SETS = {'c3': MOVES, 'c5': MOVES_C5}


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
    for fam, lo, hi, meth, why in MOVE_SETS[a.moves]:
        old = {method_at(p, fam, m) for m in range(lo, hi + 1)}
        assert len(old) == 1, (fam, lo, hi, old)  # each move replaces one method over its whole range
        print(f'{fam:9s} M {lo:3d}..{hi:3d}: {old.pop()} -> {meth} ({why})')
        set_range(p, fam, lo, hi, meth)
    json.dump(p, open(a.out, 'w'), indent=2)
    print(f'{len(MOVE_SETS[a.moves])} moves -> {a.out}')


def decide(a):
    old, new = json.load(open(a.old)), json.load(open(a.new))
    r_old = {(c['family'], c['m']): c['ratio'] for c in json.load(open(a.sw_old))['cases']}
    r_new = {(c['family'], c['m']): c['ratio'] for c in json.load(open(a.sw_new))['cases']}
    final, kept = new, 0
    for fam, lo, hi, meth, _ in MOVE_SETS[a.moves]:
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
    print(f'{kept} of {len(MOVE_SETS[a.moves])} moves kept -> {a.out}')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    ap.add_argument('--moves', choices=sorted(MOVE_SETS), default='c3', help='which list of moves')
    ap.add_argument('--moves-file', help='JSON list of [family, lo, hi, method, why] (overrides --moves)')
    b = sub.add_parser('build')
    b.add_argument('plan'); b.add_argument('out')
    d = sub.add_parser('decide')
    for n in ('old', 'new', 'sw_old', 'sw_new', 'out'):
        d.add_argument(n)
    args = ap.parse_args()
    if args.moves_file:
        MOVE_SETS['file'] = [tuple(mv) for mv in json.load(open(args.moves_file))]
        args.moves = 'file'
    build(args) if args.cmd == 'build' else decide(args)


if __name__ == '__main__':
    sys.exit(main())
