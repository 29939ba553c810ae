#!/usr/bin/env bash
# Ledger P6 / P7 (session 12, prepared): where wgmma_tma red5's first 2-3 us go. A stamps build
# (cmake -DCMAKE_CUDA_FLAGS=-DPROJKIT_WGMMA_STAMPS=1) records per CTA: thread 0's entry, its
# index math done, the mbarriers initialized, its first TMA issued and the whole first fill issued
# (P7); the first stage landed; and a plain 16-byte load of the CTA's W tile outside stage 0 (same
# 2 MB page) issued by thread 64 at kernel start, with the time it returned (P6): its latency next
# to the first box's tells a TMA-path cost (descriptor, box) from any cold first access after the
# L2 flush (DRAM, TLB). Runs the P4 cases (tools/experiments/p4_straggler_stamps.sh).
# Usage: tools/experiments/p7_startup.sh STAMPS_BIN OUT_DIR   (~20 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/p4_straggler_stamps.sh "$BIN" "$O" >"$O/p4-run.txt" 2>&1
python3 tools/experiments/p4_analyze.py "$O" >"$O/p4-analysis.txt" 2>&1
python3 - "$O" <<'PY' | tee "$O/p7.txt"
import csv, glob, statistics as st, sys
# CSV: config, cta, ks, tile, smid, slots 0..6, then 8..12 (ns from the earliest CTA start)
COL = {0: 5, 1: 6, 2: 7, 3: 8, 4: 9, 5: 10, 6: 11, 8: 12, 9: 13, 10: 14, 11: 15, 12: 16}
d = {}
for f in sorted(glob.glob(sys.argv[1] + '/stamps-*.csv')):
    for r in csv.reader(open(f)):
        if len(r) < 17: continue
        d.setdefault(r[0], []).append([0] + [int(x) for x in r[1:]])
print('config: medians over CTAs, us from the earliest CTA start')
print('  thread 0: entry / index math / mbarriers / first TMA / fill issued; stage 0 landed; LSU probe issued / back;')
print('  first box = stage 0 landed - first TMA; LSU = back - issued')
for k, rows in sorted(d.items()):
    med = lambda s: st.median(r[COL[s]] / 1e3 for r in rows)
    dif = lambda a, b: st.median((r[COL[a]] - r[COL[b]]) / 1e3 for r in rows if r[COL[a]] and r[COL[b]])
    print(f'{k[14:58]:44s} t0 {med(8):.2f} / {med(9):.2f} / {med(10):.2f} / {med(11):.2f} / {med(4):.2f}; stage0 {med(1):.2f}; '
          f'lsu {med(12):.2f} / {med(5):.2f} | first box {dif(1, 11):.2f} lsu {dif(5, 12):.2f} (n={len(rows)})')
PY
