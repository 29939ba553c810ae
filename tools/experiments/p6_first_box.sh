#!/usr/bin/env bash
# Ledger P6 (session 12): is the 1.8-2.3 us from wgmma_tma red5's first TMA issue to its first
# W box landing (P5) the TMA path, or any cold access to the weights after the L2 flush? A stamps
# build (cmake -DCMAKE_CUDA_FLAGS=-DPROJKIT_WGMMA_STAMPS=1) has thread 64 load 16 B of the CTA's W
# tile outside stage 0 (same 2 MB page) with a plain LSU load at kernel start (slot 5 = when it
# returned), next to the fill's issue (slot 4) and stage 0's landing (slot 1). Runs the P4 cases.
# Usage: tools/experiments/p6_first_box.sh STAMPS_BIN OUT_DIR   (~20 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/p4_straggler_stamps.sh "$BIN" "$O" >"$O/p4-run.txt" 2>&1
python3 tools/experiments/p4_analyze.py "$O" >"$O/p4-analysis.txt" 2>&1
python3 - "$O" <<'PY' | tee "$O/p6.txt"
import csv, glob, statistics as st, sys
d = {}
for f in sorted(glob.glob(sys.argv[1] + '/stamps-*.csv')):
    for r in csv.reader(open(f)):
        v = [int(x) for x in r[5:12]]  # start, first (stage 0), end, parked, fill issued, LSU probe, exit
        if v[5] == 0: continue
        d.setdefault(r[0], []).append(v)
print('config: medians over CTAs (us from the earliest CTA start): start, fill issued, stage 0 landed, LSU probe back; LSU latency (probe - start)')
for k, rows in sorted(d.items()):
    med = lambda i: st.median(r[i] / 1e3 for r in rows)
    lat = st.median((r[5] - r[0]) / 1e3 for r in rows)
    print(f'{k[14:58]:44s} start {med(0):.2f} issued {med(4):.2f} stage0 {med(1):.2f} lsu {med(5):.2f} | lsu latency {lat:.2f} (n={len(rows)})')
PY
