#!/usr/bin/env bash
# Session 44, call 1 (H200): E110, the router ring with skewed K ranges (sk2 / sk4 on plan Z12b's
# router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1: K splits 2p / 2p+1 take 8 -/+ sk k-blocks).
# Measured in session 46 (H100; refuted) and removed after it: the script needs the binaries of a tree
# from 61a4e1e to b9ee9fb, where sk2 / sk4 are listed.
# 1. GPU tests of the router ring (TESTS=0: not) (every listed ring config, the new two included: fp64
#    reference, NaN / Inf, graph replay twice, two Projections on two streams), the ring's four tests
#    under compute-sanitizer memcheck (MEMCHECK=0: not), and `projkit check
#    --method` of sk2 and sk4 over router M 1..256.
# 2. Same-binary A/B (200 pairs, A B C C B A per case) at router M $MS against the plan's config.
# 3. With a stamps binary (STAMPS_BIN, a -DPROJKIT_WGMMA_STAMPS=1 -DPROJKIT_STAMPS_LIGHT=1 build of
#    this tree): per-CTA stamps of the three configs at M 128 / 256, split by K-split parity (the
#    short and long halves): loop end, zero hand-off, adds issued (medians over CTAs, two runs).
# Rule (fixed before the call): a plan ring range moves to sk2 or sk4 only where the variant gains
#   >= 1 % in paired ratio and in time at every measured M of the range, and the range has >= 2
#   measured M; where both pass, the one with the larger smallest gain. A moved plan is written to
#   OUT/h200.json (on an H100 80GB HBM3: its own plan, OUT/h100-80gb-hbm3.json); with JUDGE=1 it is
#   judged by the default bench (200 pairs) and check M 1..256 on it in the same call.
# Usage: tools/experiments/call1_s44.sh BIN OUT_DIR [STAMPS_BIN]   (~3-5 min)
set -u
BIN=${1:?}; O=${2:?}; SBIN=${3:-}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$O/device.txt"
# the card's plan (an H100 80GB HBM3 gets its own; the rule then leaves its E109 ranges alone)
if grep -q H200 "$O/device.txt"; then PLAN=h200.json; else PLAN=h100-80gb-hbm3.json; fi
P=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
: >"$O/summary.txt"
if [ "${TESTS:-1}" = 1 ]; then
  timeout 120 "$BIN/projkit_gpu_tests" --gtest_filter='Router/RouterFamily.*/router_hilo_ring' >"$O/gpu-tests-router.txt" 2>&1
  echo "router GPU tests rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gpu-tests-router.txt" | tr '\n' ' ')" | tee -a "$O/summary.txt"
fi
for v in sk2 sk4; do
  timeout 120 "$BIN/projkit" check --method "$P.$v" --families router --m 1..256 >"$O/check-$v.txt" 2>&1
  echo "check $v rc=$? | $(tail -1 "$O/check-$v.txt")" | tee -a "$O/summary.txt"
done
MS=${MS:-"65 72 90 98 99 100 101 105 128 160 192 224 256"}
CASES=""; for m in $MS; do CASES="$CASES router:$m:$P,$P.sk2,$P.sk4"; done
CASES=$CASES PAIRS=200 TAG=e110 timeout 420 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e110.txt" >>"$O/summary.txt"; rm -f "$O/ab/summary-e110.txt"
python3 - "$O/summary.txt" "plans/$PLAN" "$O/$PLAN" <<'PY' | tee "$O/rule.txt"
import json, re, sys
summ, src, dst = sys.argv[1:]
rows = {}
for line in open(summ):
    m = re.match(r'router\s+M\s+(\d+)\s+(\S+)\s+([\d.]+) us \(([-+][\d.]+)%\)', line)
    if m: rows.setdefault(int(m[1]), {})[m[2].split('.')[-1]] = (float(m[3]), float(m[4]))
plan = json.load(open(src)); moved = 0
for e in plan['families']['router']:
    if not e['method'].startswith('router_hilo_ring.split16'): continue
    lo, hi = e['m']
    ms = sorted(m for m in rows if lo <= m <= hi and all(k in rows[m] for k in ('ls1', 'sk2', 'sk4')))
    best = None
    for v in ('sk2', 'sk4'):
        ok = len(ms) >= 2 and all(rows[m][v][1] >= 1.0 and rows[m][v][0] < rows[m]['ls1'][0] for m in ms)
        g = min((rows[m][v][1] for m in ms), default=0.0)
        print(f'range {lo}..{hi} {v}: measured at {ms}: ' + ' '.join(f'{rows[m][v][1]:+.1f}%' for m in ms) + (' passes' if ok else ''))
        if ok and (best is None or g > best[1]): best = (v, g)
    if best: e['method'] = e['method'] + '.' + best[0]; moved += 1; print(f'range {lo}..{hi} -> {best[0]}')
open(dst, 'w').write(json.dumps(plan, indent=2))
print(f'{moved} ranges moved')
PY
if [ -n "$SBIN" ]; then
  RING_CASES="128:$P 128:$P.sk2 128:$P.sk4 256:$P 256:$P.sk2 256:$P.sk4" timeout 200 \
    tools/experiments/p8_router_ring_stamps.sh "$SBIN" "$O/p8" >/dev/null 2>&1
  echo "stamps rc=$?"
  python3 - "$O/p8" <<'PY' | tee "$O/stamps-halves.txt"
import csv, glob, statistics as st, sys
# CSV: config, cta, x (K split), y, z, smid, then slots 0..6, 8..15 (router_hilo_ring.cu); us from the launch's earliest entry
C = {'wg0_first': 8, 'loop_end': 9, 'zero_ok': 11, 'adds': 12}
print('us from the earliest entry, median over the CTAs of a K-split parity (even = short with sk), two runs pooled')
print(f'{"M":>4} {"config":>6} {"half":>5} ' + ' '.join(f'{k:>9}' for k in C) + f' {"last adds":>9}')
for f in sorted(glob.glob(sys.argv[1] + '/stamps-*.csv')):
    m = f.split('-')[-2]
    by = {}
    for r in csv.reader(open(f)):
        by.setdefault(r[0], []).append(r)
    for cfg, rs in by.items():
        for half in (0, 1):
            h = [r for r in rs if int(r[2]) % 2 == half]
            print(f'{m:>4} {cfg.split(".")[-1]:>6} {("even", "odd")[half]:>5} ' +
                  ' '.join(f'{st.median(int(r[c]) for r in h) / 1000:9.2f}' for c in C.values()) +
                  f' {max(int(r[12]) for r in h) / 1000:9.2f}  ({f.split("/")[-1]})')
PY
fi
if [ "${JUDGE:-0}" = 1 ] && ! grep -q "^0 ranges moved" "$O/rule.txt"; then
  PROJKIT_PLAN="$O/$PLAN" BENCH_PAIRS=200 tools/device_results.sh "$BIN" "$O/res" "bench check" 2>&1 | tail -6
fi
if [ "${MEMCHECK:-1}" = 1 ]; then
  PROJKIT_MEMCHECK_FILTER='Router/RouterFamily.*/router_hilo_ring' timeout 100 tests/run_memcheck.sh "$BIN/projkit_gpu_tests" >"$O/memcheck-ring.txt" 2>&1
  echo "ring memcheck rc=$? | $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$O/memcheck-ring.txt" | tr '\n' ' ')" | tee -a "$O/summary.txt"
fi
echo "== E110 A/B"; grep -v "^check\|^router GPU" "$O/summary.txt"; echo "== rule"; cat "$O/rule.txt"
head -3 "$O/summary.txt"
echo "done ($SECONDS s)"
