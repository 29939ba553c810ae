#!/usr/bin/env bash
# Ledger E54 + P9 (session 14): router_hilo_ring's first-fill issue order and where thread 0's
# fill time goes.
# E54: early3 (each stage's x box issued before its W tiles) and early4 (every x box of the fill,
#   then every W tile: E52's order mirrored) against early1 and early2 (E53), same binary:
#   Router GPU tests, check M 33..256 per new config, then bench 200 pairs at five M in the
#   order e1 e2 e3 e4 e4 e3 e2 e1.
# P9: the stamps build (cmake -DCMAKE_CUDA_FLAGS=-DPROJKIT_WGMMA_STAMPS=1) at M 65 / 128 / 256 for
#   the four configs: thread 0's mbarrier init (slot 11), first k-block issued (12), whole fill
#   issued (1), and the first stage landed (2).
# Usage: tools/experiments/e54_ring_fill_order.sh BIN STAMPS_BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; SB=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1
timeout 90 "$BIN/projkit_gpu_tests" --gtest_filter='Router*' >"$O/tests.txt" 2>&1; echo "tests rc=$?"; tail -1 "$O/tests.txt"
for v in early3 early4; do
  timeout 60 "$BIN/projkit" check --families router --m 33..256 --method $R.$v >"$O/check-$v.txt" 2>&1
  echo "check $v rc=$?"; tail -1 "$O/check-$v.txt"
done
for m in 65 96 128 192 256; do
  n=0
  for v in early1 early2 early3 early4 early4 early3 early2 early1; do
    n=$((n + 1))
    timeout 40 "$BIN/projkit" bench --pairs 200 --families router --loads $m --method "$R.$v" \
      --json "$O/b-$m-$n.$v.json" >"$O/b-$m-$n.$v.txt" 2>&1 || echo "bench $m $v rc=$?"
  done
done
for m in 65 128 256; do
  for v in early1 early2 early3 early4; do
    PROJKIT_WGMMA_STAMPS_CSV="$O/stamps-$m-$v.csv" timeout 40 "$SB/projkit" bench --method "$R.$v" --families router \
      --loads "$m" --pairs 50 >"$O/stamps-$m-$v.txt" 2>&1 || echo "stamps $m $v rc=$?"
  done
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import csv, json, glob, os, sys, statistics as st
O = sys.argv[1]
res = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    _, m, rest = os.path.basename(f)[:-5].split('-')
    try: c = json.load(open(f))['cases'][0]
    except Exception: continue
    res.setdefault(int(m), {}).setdefault(rest.split('.')[1], []).append((c['ratio'], c['cand_us']))
print('E54 (mean of two runs each; % = paired ratio against early1)')
for m, v in sorted(res.items()):
    if 'early1' not in v: continue
    b = st.mean(x[0] for x in v['early1'])
    print(f'router M {m:3d}: ' + ' | '.join(
        f"{k} {st.mean(x[1] for x in v[k]):.2f} us ({100 * (st.mean(x[0] for x in v[k]) / b - 1):+.1f}%)"
        for k in ('early1', 'early2', 'early3', 'early4') if k in v))
# stamps CSV: config, cta, ks, row tile, slice, smid, then slots 0,1,2,3,4,5,6,8,9,10,11,12 (ns from the earliest entry)
COLS = {'entry': 0, 'fill': 1, 'wg0_first': 2, 'loop_end': 3, 'adds': 6, 'mbar_ready': 10, 'first_issued': 11}
print('P9: us from the earliest CTA entry, median over CTAs of the last launch record (max)')
for f in sorted(glob.glob(os.path.join(O, 'stamps-*.csv'))):
    _, m, v = os.path.basename(f)[:-4].split('-')
    rows = [[int(x) for x in r[6:18]] for r in csv.reader(open(f)) if len(r) >= 18]
    if not rows: continue
    n = len(rows)
    line = []
    for name, i in COLS.items():
        vals = [r[i] / 1e3 for r in rows if r[i]]
        if vals: line.append(f'{name} {st.median(vals):.2f} ({max(vals):.2f})')
    print(f'M {m:>3s} {v}: ' + ', '.join(line) + f'  [{n} CTA rows]')
PY
