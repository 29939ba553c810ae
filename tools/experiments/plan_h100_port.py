"""Session 36: a plan for the H100 (SXM, 80 GB HBM3) from the shipped H200 plan, pruned by a sweep.

The device tool now lends H100s first, and projkit had no plan for them: Plan::for_device looks for
plans/<device slug>.json (h100-80gb-hbm3.json) and, finding none, ran the built-in safe plan (the
baseline everywhere). Both chips are sm_90a with 132 SMs and 227 KB of opt-in smem; they differ in
DRAM (HBM3 at 3.35 TB/s against HBM3e at 4.8) and L2 (50 against 60 MB). So the H200 plan's kernels
run there unchanged; whether each range still wins is measured, not assumed.

  port SRC OUT --device NAME --sm N --runtime R --cublas C
      SRC's ranges under a header for the named device (the values `projkit info` prints there).
  prune PLAN SWEEP OUT
      The rule, fixed before the call that measures it (tools/experiments/call2_s36.sh): a range
      that runs a projkit method keeps it if, over the M of the range, the sweep's paired ratios
      have median >= 1.00 and minimum >= 0.95; otherwise the range goes to the baseline. Prints
      every range's median / minimum and the M below 0.98, and the decision.
"""
import argparse, json, statistics as st, sys


def port(a):
    p = json.load(open(a.src))
    p['header'] = dict(p['header'], device=a.device, sm_count=a.sm, cuda_runtime=a.runtime, cublas=a.cublas)
    json.dump(p, open(a.out, 'w'), indent=2)
    print(f'ported {a.src} -> {a.out} for {a.device} ({a.sm} SMs, runtime {a.runtime}, cuBLAS {a.cublas})')


def prune(a):
    p = json.load(open(a.plan))
    ratio = {(c['family'], c['m']): c['ratio'] for c in json.load(open(a.sweep))['cases']}
    moved = 0
    for fam, ranges in p['families'].items():
        kept = []
        for r in ranges:
            lo, hi = r['m']
            rs = [ratio[(fam, m)] for m in range(lo, hi + 1) if (fam, m) in ratio]
            if not rs:
                kept.append(r)
                print(f'{fam:9s} M {lo:3d}..{hi:3d} {r["method"]}: not in the sweep, kept')
                continue
            med, low = st.median(rs), min(rs)
            below = [m for m in range(lo, hi + 1) if ratio.get((fam, m), 9) < 0.98]
            keep = med >= 1.00 and low >= 0.95
            print(f'{fam:9s} M {lo:3d}..{hi:3d} median {med:.3f} min {low:.3f} below 0.98 at {below or "-"}: '
                  f'{"kept" if keep else "-> baseline"} ({r["method"]})')
            if keep:
                kept.append(r)
            else:
                moved += 1
        p['families'][fam] = kept
    json.dump(p, open(a.out, 'w'), indent=2)
    print(f'{moved} range(s) moved to the baseline -> {a.out}')
    return moved


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    a = sub.add_parser('port')
    a.add_argument('src'); a.add_argument('out')
    a.add_argument('--device', required=True); a.add_argument('--sm', type=int, required=True)
    a.add_argument('--runtime', type=int, required=True); a.add_argument('--cublas', type=int, required=True)
    b = sub.add_parser('prune')
    b.add_argument('plan'); b.add_argument('sweep'); b.add_argument('out')
    args = ap.parse_args()
    if args.cmd == 'port':
        port(args)
    else:
        prune(args)


if __name__ == '__main__':
    sys.exit(main())
