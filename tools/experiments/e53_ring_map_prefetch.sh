#!/usr/bin/env bash
# Ledger E53 (session 13): router_hilo_ring early2 (x's tensor map prefetched at kernel entry; E52 without its reordering of the
# first fill) against early1, same binary; Router GPU tests,
# check over M 33..256, then bench base / var / var / base at five M.
# Usage: tools/experiments/e53_ring_map_prefetch.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1
timeout 90 "$BIN/projkit_gpu_tests" --gtest_filter='Router*' >"$O/tests.txt" 2>&1; echo "tests rc=$?"; tail -1 "$O/tests.txt"
timeout 60 "$BIN/projkit" check --families router --m 33..256 --method $R.early2 >"$O/check.txt" 2>&1; echo "check rc=$?"; tail -1 "$O/check.txt"
for m in 65 96 128 192 256; do
  n=0
  for v in early1 early2 early2 early1; do
    n=$((n + 1))
    timeout 40 "$BIN/projkit" bench --pairs 200 --families router --loads $m --method "$R.$v" \
      --json "$O/b-$m-$n.$v.json" >"$O/b-$m-$n.$v.txt" 2>&1 || echo "bench $m $v rc=$?"
  done
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import json, glob, os, sys, statistics as st
res = {}
for f in glob.glob(os.path.join(sys.argv[1], 'b-*.json')):
    _, m, rest = os.path.basename(f)[:-5].split('-')
    try: c = json.load(open(f))['cases'][0]
    except Exception: continue
    res.setdefault(int(m), {}).setdefault(rest.split('.')[1], []).append((c['ratio'], c['cand_us']))
for m, v in sorted(res.items()):
    if 'early1' not in v or 'early2' not in v: continue
    b = st.mean(x[0] for x in v['early1']); bu = st.mean(x[1] for x in v['early1'])
    r = st.mean(x[0] for x in v['early2']); ru = st.mean(x[1] for x in v['early2'])
    print(f'router M {m:3d}: early1 {bu:.2f} us r{b:.3f} | early2 {ru:.2f} us r{r:.3f} ({100 * (r / b - 1):+.1f}%)')
PY
