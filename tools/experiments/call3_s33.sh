#!/usr/bin/env bash
# Session 33, call 3: P33, where E101's gain comes from. Light stamps (a PROJKIT_WGMMA_STAMPS +
# PROJKIT_STAMPS_LIGHT build of this tree; production kernels untouched) of the router ring's wmc1
# and wmc1.lf1 at router M 128 and 256 (p8_router_ring_stamps.sh: thread 0's mbarriers / first
# k-block / fill issued, each warpgroup's first stage, the main-loop end, the park, the zero hand-off,
# the adds; two launches per config, medians over CTAs). No plan change can follow from it.
# Session 34: P33_CASES ("M:CONFIG .." words, p8's RING_CASES) and P33_LABEL replace the four cases
# and the title below (call1_s34.sh: P34, lf1 against lf1.ls1). Session 35: the first_red column (P39)
# where the build records it.
# Usage: [P33_CASES=.. P33_LABEL=..] tools/experiments/call3_s33.sh STAMPS_BIN OUT_DIR   (~40 s)
set -u
SBIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1
echo "== ${P33_LABEL:-P33: ring stamps, wmc1 and wmc1.lf1} ($(date +%T))"
RING_CASES="${P33_CASES:-128:$R 128:$R.lf1 256:$R 256:$R.lf1}" timeout 200 tools/experiments/p8_router_ring_stamps.sh "$SBIN" "$O/p8" >/dev/null 2>&1
echo "p8 rc=$?"
cat "$O/p8/p8.txt"
# thread 0's start-up points too (CSV columns after slot 10: mbar_ready 11, first_issued 12, index_done 13)
python3 - "$O/p8" <<'PY' | tee "$O/p33.txt"
import csv, glob, statistics as st, sys
COLS = {'index_done': 18, 'mbar_ready': 16, 'first_issued': 17, 'fill_issued': 7, 'wg0_first': 8, 'wg1_first': 15,
        'loop_end': 9, 'parked': 10, 'zero_ok': 11, 'adds': 12}
if any(len(r) > 19 for f in glob.glob(sys.argv[1] + '/stamps-*.csv') for r in csv.reader(open(f))):
    COLS['cluster_ok'] = 19  # session 34's P35 slot (builds since then): thread 0 past the pair's cluster wait
if any(len(r) > 20 for f in glob.glob(sys.argv[1] + '/stamps-*.csv') for r in csv.reader(open(f))):
    COLS['first_red'] = 20  # session 35's P39 slot: thread 0's first red issued (after zero_ok)
d = {}
for f in glob.glob(sys.argv[1] + '/stamps-*.csv'):
    m, run = f.split('-')[-2], f.split('-')[-1][:-4]
    for r in csv.reader(open(f)):
        if len(r) < 19: continue
        d.setdefault((int(m), r[0]), {}).setdefault(run, []).append(r)
print('us from the earliest CTA entry, median over CTAs (mean over the launches kept)')
print('M   config' + ''.join(f' {k:>12s}' for k in COLS))
for (m, cfg), runs in sorted(d.items()):
    vals = []
    for k, col in COLS.items():
        meds = [st.median([int(r[col]) / 1e3 for r in rows if int(r[col])] or [0]) for rows in runs.values()]
        vals.append(st.mean(meds))
    print(f'{m:3d} {cfg[-12:]:12s}' + ''.join(f' {v:12.2f}' for v in vals))
PY
tar cJf "$O/p8.tar.xz" -C "$O" p8 && rm -rf "$O/p8"
echo "done ($SECONDS s)"
