#!/usr/bin/env bash
# Ledger P9b (session 14): router_hilo_ring thread 0's start-up with the stamps of that phase
# kept in registers until after the fill (P9 stored them as they happened, behind the cold read
# of the stamps pointer). Stamps build (cmake -DCMAKE_CUDA_FLAGS=-DPROJKIT_WGMMA_STAMPS=1), the
# plan's ring config at M 65 / 128 / 256, two processes each; medians over CTAs per launch record.
# Usage: tools/experiments/p9b_ring_thread0.sh STAMPS_BIN OUT_DIR   (~30 s)
set -u
SB=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1
for run in 1 2; do
  for m in 65 128 256; do
    PROJKIT_WGMMA_STAMPS_CSV="$O/stamps-$m-$run.csv" timeout 40 "$SB/projkit" bench --method "$R" --families router \
      --loads "$m" --pairs 50 >"$O/bench-$m-$run.txt" 2>&1 || echo "stamps $m $run rc=$?"
  done
done
python3 - "$O" <<'PY' | tee "$O/p9b.txt"
import csv, glob, os, sys, statistics as st
# CSV: config, cta, ks, row tile, slice, smid, then slots 0,1,2,3,4,5,6,8,9,10,11,12,13 (ns from the earliest entry)
COLS = [('entry', 0), ('index_done', 12), ('mbar_ready', 10), ('first_issued', 11), ('fill_issued', 1),
        ('wg0_first', 2), ('loop_end', 3), ('parked', 4), ('adds', 6)]
print('us from the earliest CTA entry: median over the CTAs of each launch record, then the median over records')
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'stamps-*.csv'))):
    _, m, run = os.path.basename(f)[:-4].split('-')
    rows = [[int(x) for x in r[6:19]] for r in csv.reader(open(f)) if len(r) >= 19]
    if not rows: continue
    n = 128 if len(rows) % 128 == 0 else len(rows)
    launches = [rows[i:i + n] for i in range(0, len(rows), n)]
    out = []
    for name, i in COLS:
        meds = [st.median([r[i] / 1e3 for r in L if r[i]]) for L in launches if any(r[i] for r in L)]
        if meds: out.append(f'{name} {st.median(meds):.2f}')
    print(f'M {m:>3s} run {run} ({len(launches)} records): ' + ', '.join(out))
PY
