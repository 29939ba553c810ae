#!/usr/bin/env bash
# Ledger E56 (session 14): router_hilo_ring kp1, K-split pairs in clusters of 2 along K that sum
# their partials through DSMEM before the reds (8 partials per output instead of 16), against the
# same tiling without pairs, same binary.
# Steps: Router GPU tests (every listed config incl. both kp1: fp64 reference over 21 M, NaN/Inf,
# graph replay twice, two streams); the ring's tests under compute-sanitizer memcheck; check over
# M 33..256 per kp1 config; bench 200 pairs base / var / var / base: early1 vs early1.kp1 at five
# M, the PDL-zero tiling vs its kp1 at two; stamps of early1 and early1.kp1 at M 128 / 256.
# Usage: tools/experiments/e56_ring_k_pairs.sh BIN STAMPS_BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; SB=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2
timeout 120 "$BIN/projkit_gpu_tests" --gtest_filter='Router*' >"$O/tests.txt" 2>&1; echo "tests rc=$?"; tail -1 "$O/tests.txt"
grep -E "FAILED|Failure|error" "$O/tests.txt" | head -5
PROJKIT_MEMCHECK_FILTER='Router/RouterFamily.*/router_hilo_ring' timeout 240 tests/run_memcheck.sh \
  "$BIN/projkit_gpu_tests" >"$O/memcheck.txt" 2>&1; echo "memcheck rc=$?"; grep -E "PASSED|ERROR SUMMARY" "$O/memcheck.txt"
for v in zw1.early1.kp1 kp1; do
  timeout 60 "$BIN/projkit" check --families router --m 33..256 --method $R.$v >"$O/check-$v.txt" 2>&1
  echo "check $v rc=$?"; tail -1 "$O/check-$v.txt"
done
ab() {  # ab M BASE VAR
  local n=0 v
  for v in "$2" "$3" "$3" "$2"; do
    n=$((n + 1))
    timeout 40 "$BIN/projkit" bench --pairs 200 --families router --loads "$1" --method "$R${v:+.$v}" \
      --json "$O/b-$1-$n.$([ "$v" = "$2" ] && echo base || echo var)-${3//./_}.json" >/dev/null 2>&1 || echo "bench $1 $v rc=$?"
  done
}
for m in 65 96 128 192 256; do ab $m zw1.early1 zw1.early1.kp1; done
for m in 128 256; do ab $m "" kp1; done
for m in 128 256; do
  for v in zw1.early1 zw1.early1.kp1; do
    PROJKIT_WGMMA_STAMPS_CSV="$O/stamps-$m-$v.csv" timeout 40 "$SB/projkit" bench --method "$R.$v" --families router \
      --loads "$m" --pairs 50 >"$O/stamps-$m-$v.txt" 2>&1 || echo "stamps $m $v rc=$?"
  done
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import csv, json, glob, os, sys, statistics as st
O = sys.argv[1]
res = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    _, m, rest = os.path.basename(f)[:-5].split('-', 2)
    _, role_var = rest.split('.', 1)
    role, var = role_var.split('-', 1)
    try: c = json.load(open(f))['cases'][0]
    except Exception: continue
    res.setdefault((var, int(m)), {}).setdefault(role, []).append((c['ratio'], c['cand_us']))
print('E56 (mean of two runs each; % = paired ratio of the variant against its base)')
for (var, m), v in sorted(res.items()):
    if 'base' not in v or 'var' not in v: continue
    b = st.mean(x[0] for x in v['base']); bu = st.mean(x[1] for x in v['base'])
    r = st.mean(x[0] for x in v['var']); ru = st.mean(x[1] for x in v['var'])
    print(f'router M {m:3d} {var:16s}: base {bu:.2f} us | var {ru:.2f} us ({100 * (r / b - 1):+.1f}%)')
COLS = {'fill': 1, 'wg0_first': 2, 'loop_end': 3, 'parked': 4, 'zero_ok': 5, 'adds': 6, 'zero_done': 8}
print('stamps: us from the earliest CTA entry, median over CTAs (max)')
for f in sorted(glob.glob(os.path.join(O, 'stamps-*.csv'))):
    _, m, v = os.path.basename(f)[:-4].split('-', 2)
    rows = [[int(x) for x in r[6:18]] for r in csv.reader(open(f)) if len(r) >= 18]
    if not rows: continue
    line = []
    for name, i in COLS.items():
        vals = [r[i] / 1e3 for r in rows if r[i]]
        if vals: line.append(f'{name} {st.median(vals):.2f} ({max(vals):.2f})')
    print(f'M {m:>3s} {v}: ' + ', '.join(line))
PY
