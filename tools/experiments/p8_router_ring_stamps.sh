#!/usr/bin/env bash
# Ledger P8 (session 13): where router_hilo_ring's 7.6-9.3 us go at M 65..256 (1.66-1.79x its
# floor in run O). A stamps build (cmake -DCMAKE_CUDA_FLAGS=-DPROJKIT_WGMMA_STAMPS=1) records per
# CTA: thread 0's entry and first fill, each warpgroup's first stage, the main-loop end, the
# park, the zero-warp hand-off, the adds issued, the producer's last issue and the zero warp's
# end (router_hilo_ring.cuh, "dev phase probe"). Runs the plan's ring config at five M, twice
# each in separate processes, and prints medians / maxima per phase.
# Session 27: RING_CASES ("M:CONFIG .." words) replaces the list below (e.g. plan Z5b's wmc1 ring).
# Usage: [RING_CASES=..] tools/experiments/p8_router_ring_stamps.sh STAMPS_BIN OUT_DIR   (~30 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1
LIST="65 $R
96 $R
128 $R.early1
192 $R.early1
256 $R.early1"
[ -n "${RING_CASES:-}" ] && LIST=$(tr ' :' '\n ' <<<"$RING_CASES")
for run in 1 2; do
  while read -r m cfg; do
    PROJKIT_WGMMA_STAMPS_CSV="$O/stamps-$m-$run.csv" timeout 40 "$BIN/projkit" bench --method "$cfg" --families router \
      --loads "$m" --pairs 50 >"$O/bench-$m-$run.txt" 2>&1 || echo "bench $m $run rc=$?"
  done <<<"$LIST"
done
python3 - "$O" <<'PY' | tee "$O/p8.txt"
import csv, glob, statistics as st, sys
# CSV: config, cta, ks, row tile, slice, smid, slots 0..6 then 8..10 (ns from the earliest entry)
NAMES = ['entry', 'fill', 'wg0_first', 'loop_end', 'parked', 'zero_ok', 'adds', 'prod_last', 'zero_done', 'wg1_first']
d = {}
for f in sorted(glob.glob(sys.argv[1] + '/stamps-*.csv'), key=lambda p: int(p.split('-')[-2])):
    m = int(f.split('-')[-2])
    launch = {}
    for r in csv.reader(open(f)):
        if len(r) < 16: continue
        launch.setdefault(f'M {m} {r[0]}', []).append([int(x) for x in r[6:16]])
    for k, rows in launch.items():
        d.setdefault(k, []).append(rows)
print('us from the earliest CTA entry; per phase: median over CTAs / max (mean over the launches kept)')
for k, launches in d.items():
    print(k, f'({len(launches)} launch records, {len(launches[0])} CTAs)')
    for i, name in enumerate(NAMES):
        med = st.mean(st.median([r[i] / 1e3 for r in rows if r[i]] or [0]) for rows in launches)
        mx = st.mean(max([r[i] / 1e3 for r in rows if r[i]] or [0]) for rows in launches)
        print(f'   {name:10s} {med:6.2f} / {mx:6.2f}')
    span = st.mean(st.median([(r[3] - r[2]) / 1e3 for r in rows if r[3] and r[2]]) for rows in launches)
    print(f'   stream (loop_end - wg0_first), median {span:.2f}')
PY
