#!/usr/bin/env bash
# Ledger P12 (session 15): where does wt1 (E58: bm64.split2.red5's tiles over a grid of one CTA
# per SM in K-split-major order) gain its ~0.4 us over the tile-major equal split? Per-CTA phase
# stamps of every launch of a bench process (a PROJKIT_WGMMA_STAMPS build), pooler M 16 and
# unpooler M 32, base and wt1, two processes each; per launch: the median CTA's first stage, the
# median and last main-loop end, the last exit (us from the earliest CTA start), and the spread
# of the per-CTA stream rate (k-blocks / (main-loop end - first stage)); medians over launches.
# Usage: tools/experiments/p12_wt1_stamps.sh STAMPS_BIN_DIR OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
B=wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5
for run in 1 2; do
  for fm in pooler:16 unpooler:32; do
    for v in "$B" "$B.wt1"; do
      f=${fm%%:*}; m=${fm##*:}; tag=base; [ "$v" != "$B" ] && tag=wt1
      stamps_bench "$BIN" "$O/stamps-$f-$m-$tag-$run.csv" "$O/bench-$f-$m-$tag-$run.txt" 50 "$f" "$m" "$v"
    done
  done
done
PYTHONPATH=tools/experiments python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, os, statistics as st, sys
from p4_analyze import launches, phase_medians
O = sys.argv[1]
KB = {'pooler': 128, 'unpooler': 64}  # k-blocks per tile (K / 64)
TILES = {'pooler': 32, 'unpooler': 64}
print('P12: medians over launches (us from the earliest CTA start); rate spread = (p90 - p10) / median of k-blocks / (end - first)')


def rate_spread(L, fam, tag):
    n = len(L)
    if tag == 'base':
        kb = [KB[fam] // 2 for c in L]
    else:  # wt1: CTA c on tile c % tiles, member c // tiles, members = ceil((n - tile) / tiles)
        t = TILES[fam]
        kb = []
        for c in L:
            tile, j = c['cta'] % t, c['cta'] // t
            mem = (n - tile + t - 1) // t
            kb.append(KB[fam] * (j + 1) // mem - KB[fam] * j // mem)
    rate = sorted(k / (c['end'] - c['first']) for k, c in zip(kb, L) if c['end'] > c['first'])
    q = lambda p: rate[min(len(rate) - 1, int(p * len(rate)))]
    return (q(0.9) - q(0.1)) / st.median(rate)


for f in sorted(glob.glob(os.path.join(O, 'stamps-*.csv'))):
    fam, m, tag, run = os.path.basename(f)[:-4].split('-')[1:]
    for cfg, ll in launches(f).items():
        ll = [L for L in ll if len(L) >= 8]
        ph = phase_medians(ll)
        if ph is None: continue
        spread = st.median(rate_spread(L, fam, tag) for L in ll)
        print(f'{fam:8s} M {m:>3s} {tag:4s} run {run}: {len(ll):3d} launches x {len(ll[0]):3d} CTAs | first {ph[0]:.2f} | '
              f'end median {ph[1]:.2f} last {ph[2]:.2f} | exit last {ph[3]:.2f} | rate spread {100 * spread:.1f} %')
PY
for f in "$O"/stamps-*.csv; do xz -9 "$f"; done
