#!/usr/bin/env bash
# Ledger E57 (session 14): wgmma_tma kq1 (K splits in k16 steps: 73-74 per split for qkv's
# split7 instead of 18 or 19 k-blocks) against the plan's kq0 twins, same binary.
# Steps: the Dense wgmma_tma GPU suites (every listed config incl. the two kq1: fp64 at up to 22 M,
# red5 three launches per M); check of each kq1 config over the qkv M it takes; bench 200 pairs
# base / var / var / base at qkv M 160 / 192 (bm192.split7) and 224 / 256 (bm256.split7); stamps
# of both bm256 configs at M 256: main-loop end by K split.
# Usage: tools/experiments/e57_k16_split.sh BIN STAMPS_BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; SB=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B192=wgmma_tma.bn128.bm192.split7.mc1.stages5.xfit1.red5
B256=wgmma_tma.bn128.bm256.split7.mc1.stages4.xfit1.red5
timeout 200 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTma*' >"$O/tests.txt" 2>&1; echo "tests rc=$?"
tail -1 "$O/tests.txt"; grep -E "Failure|FAILED" "$O/tests.txt" | head -5
timeout 60 "$BIN/projkit" check --families qkv --m 129..192 --method $B192.kq1 >"$O/check-192.txt" 2>&1; echo "check bm192.kq1 rc=$?"; tail -1 "$O/check-192.txt"
timeout 60 "$BIN/projkit" check --families qkv --m 129..256 --method $B256.kq1 >"$O/check-256.txt" 2>&1; echo "check bm256.kq1 rc=$?"; tail -1 "$O/check-256.txt"
ab() {  # ab M BASE
  local n=0 v
  for v in "$2" "$2.kq1" "$2.kq1" "$2"; do
    n=$((n + 1))
    timeout 40 "$BIN/projkit" bench --pairs 200 --families qkv --loads "$1" --method "$v" \
      --json "$O/b-$1-$n.$([ "$v" = "$2" ] && echo base || echo var).json" >/dev/null 2>&1 || echo "bench $1 $v rc=$?"
  done
}
ab 160 $B192; ab 192 $B192; ab 224 $B256; ab 256 $B256
for v in "" .kq1; do
  PROJKIT_WGMMA_STAMPS_CSV="$O/stamps-256$v.csv" timeout 40 "$SB/projkit" bench --method "$B256$v" --families qkv \
    --loads 256 --pairs 50 >"$O/stamps-256$v.txt" 2>&1 || echo "stamps $v rc=$?"
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
gains = []
print('E57 (mean of two runs each; % = paired ratio of kq1 against kq0)')
for m, v in sorted(res.items()):
    if 'base' not in v or 'var' not in v: continue
    b = st.mean(x[0] for x in v['base']); bu = st.mean(x[1] for x in v['base'])
    r = st.mean(x[0] for x in v['var']); ru = st.mean(x[1] for x in v['var'])
    gains.append(100 * (r / b - 1))
    print(f'qkv M {m:3d}: kq0 {bu:.2f} us | kq1 {ru:.2f} us ({gains[-1]:+.1f}%)')
if gains: print(f'mean {st.mean(gains):+.2f}%, min {min(gains):+.2f}%')
# wgmma_tma stamps CSV: config, cta, ks, tile, smid, then slots 0..6 and 8..12; slot 2 = main loop done
print('stamps M 256: main-loop end by K split, us from the earliest start (median over N tiles)')
for f in sorted(glob.glob(os.path.join(O, 'stamps-256*.csv'))):
    rows = [r for r in csv.reader(open(f)) if len(r) >= 12]
    if not rows: continue
    t0 = min(int(r[5]) for r in rows if int(r[5]))
    by = {}
    for r in rows:
        if int(r[7]): by.setdefault(int(r[2]), []).append((int(r[7]) - t0) / 1e3)
    print(os.path.basename(f), ' '.join(f'ks{k} {st.median(v):.2f}' for k, v in sorted(by.items())),
          f'| last {max(max(v) for v in by.values()):.2f}')
PY
