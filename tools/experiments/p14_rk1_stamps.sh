#!/usr/bin/env bash
# Ledger P14 (session 16): where does E59's rk1 (red5's own entry point) gain: inside the CTAs'
# span (first stage, main loop, epilogue) or outside it (bench time - last CTA exit)? Per-CTA
# phase stamps (a PROJKIT_WGMMA_STAMPS build) of base and rk1 at qkv M 64, pooler M 128 and
# unpooler M 128, two bench processes each (100 pairs); medians over launches of the median
# first stage, the last main-loop end and the last exit (us from the earliest CTA start).
# Usage: tools/experiments/p14_rk1_stamps.sh STAMPS_BIN_DIR OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/raw"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
W=wgmma_tma.bn128
CASES=${CASES:-"qkv:64:$W.bm64.split4.mc1.stages8.xfit1.red5 pooler:128:$W.bm192.split4.mc1.stages5.xfit1.red5 unpooler:128:$W.bm128.split2.mc1.stages6.xfit1.red5"}
for run in 1 2; do
  for c in $CASES; do
    IFS=: read -r f m cfg <<<"$c"
    for tag in base rk1; do
      v=$cfg; [ $tag = rk1 ] && v=$cfg.rk1
      stamps_bench "$BIN" "$O/raw/s-$f-$m-$tag-$run.csv" /dev/null 100 "$f" "$m" "$v" --json "$O/raw/b-$f-$m-$tag-$run.json"
    done
  done
done
PYTHONPATH=tools/experiments python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, json, os, sys
from p4_analyze import launches, phase_medians
O = sys.argv[1]
print('P14: bench us | medians over launches: first stage (median CTA) / last main-loop end / last exit | bench - last exit')
for f in sorted(glob.glob(os.path.join(O, 'raw', 'b-*.json'))):
    fam, m, tag, run = os.path.basename(f)[:-5].split('-')[1:]
    try: c = json.load(open(f))['cases'][0]
    except Exception: continue
    ph = phase_medians([L for v in launches(f.replace('/b-', '/s-')[:-5] + '.csv').values() for L in v])
    if ph is None: continue
    first, _, end, ex = ph
    print(f"{fam:8s} M {m:>3s} {tag:4s} run {run}: bench {c['cand_us']:6.2f} (base {c['base_us']:6.2f}) | "
          f"{first:5.2f} / {end:6.2f} / {ex:6.2f} | {c['cand_us'] - ex:5.2f}")
PY
tar cJf "$O/raw.tar.xz" -C "$O" raw && rm -rf "$O/raw"
