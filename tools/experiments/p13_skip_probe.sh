#!/usr/bin/env bash
# Ledger P13 (session 16): what sets the pace of wgmma_tma red5 at M 128 / 256 (and, for
# reference, at a memory-bound M 32)? A PROJKIT_WGMMA_STAMPS build leaves parts of the main loop
# out, chosen by $PROJKIT_WGMMA_PROBE_SKIP (wgmma_tma.cuh, g_probe_skip): bit 1 no x loads, bit 2
# no W loads, bit 8 no red5 adds. Each mode of MODES one bench process per case, 100 pairs, the
# plan's config; mode 0 first and last (drift); then the production binary on the same cases
# ("prod": what the stamps build itself costs). The answers are wrong in every mode but 0:
# timings only. Call 1 (commit 34893d0) had a bit 4 (no wgmma) whose branch made ptxas inject
# warpgroup.arrive into the stamps build: every mode of that call ran 1-5 us slow.
# Also (production BIN): the Dense wgmma_tma GPU suites and checks of the wt1 ranges, which
# validate c26f975's host change (x's tensor map encoded once per run) on the device.
# Usage: tools/experiments/p13_skip_probe.sh BIN STAMPS_BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/stamps"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
if [ -z "${SKIP_TESTS:-}" ]; then  # call 2 set SKIP_TESTS=1 (call 1 had run them on the same production code)
  echo "== production: GPU suites and checks ($(date +%T))"
  timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTma*' >"$O/tests.txt" 2>&1; echo "tests rc=$?"
  tail -1 "$O/tests.txt"; grep -E "Failure|FAILED" "$O/tests.txt" | head -5
  for f in pooler unpooler qkv; do
    timeout 90 "$BIN/projkit" check --families "$f" --m 1..256 >"$O/check-$f.txt" 2>&1; echo "check $f rc=$?"; tail -1 "$O/check-$f.txt"
  done
fi
W=wgmma_tma.bn128
CASES=${CASES:-"pooler:256:$W.bm256.split4.mc1.stages4.xfit1.red5 qkv:256:$W.bm256.split7.mc1.stages4.xfit1.red5
unpooler:256:$W.bm256.split2.mc1.stages4.xfit1.red5 pooler:128:$W.bm192.split4.mc1.stages5.xfit1.red5
qkv:128:$W.bm128.split4.mc1.stages6.xfit1.red5 unpooler:128:$W.bm128.split2.mc1.stages6.xfit1.red5
pooler:32:$W.bm64.split2.mc1.stages8.xfit1.red5.wt1"}
MODES=${MODES:-"0 1 2 3 8 9 10 0"}
echo "== P13 probe ($(date +%T))"
n=0
for mode in $MODES; do
  n=$((n + 1))
  for c in $CASES; do
    IFS=: read -r f m cfg <<<"$c"
    PROJKIT_WGMMA_PROBE_SKIP=$mode PROJKIT_WGMMA_STAMPS_CSV="$O/stamps/s-$f-$m-$n-$mode.csv" timeout 60 \
      "$SBIN/projkit" bench --pairs 100 --families "$f" --loads "$m" --method "$cfg" \
      --json "$O/b-$f-$m-$n-$mode.json" >"$O/stamps/bench-$f-$m-$n-$mode.txt" 2>&1 || echo "bench $f $m mode $mode rc=$?"
  done
done
for c in $CASES; do  # production binary: mode "99" in the file names
  IFS=: read -r f m cfg <<<"$c"
  timeout 60 "$BIN/projkit" bench --pairs 100 --families "$f" --loads "$m" --method "$cfg" \
    --json "$O/b-$f-$m-99-99.json" >/dev/null 2>&1 || echo "bench prod $f $m rc=$?"
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, json, os, statistics as st, sys
sys.path.insert(0, os.path.join(os.getcwd(), 'tools', 'experiments'))
from p4_analyze import launches
O = sys.argv[1]
NAME = {0: 'all', 1: 'no x', 2: 'no W', 3: 'mma only', 8: 'no adds', 9: 'no x+adds', 10: 'no W+adds', 99: 'prod'}
t, stamp = {}, {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    fam, m, n, mode = os.path.basename(f)[:-5].split('-')[1:]
    try: c = json.load(open(f))['cases'][0]
    except Exception: continue
    t.setdefault((fam, int(m)), {}).setdefault(int(mode), []).append((c['cand_us'], c['base_us'], c['floor_us']))
    ll = [L for v in launches(os.path.join(O, 'stamps', f's-{fam}-{m}-{n}-{mode}.csv')).values() for L in v if len(L) >= 8]
    if ll:
        stamp.setdefault((fam, int(m)), {}).setdefault(int(mode), []).append(
            (st.median(st.median(c['first'] for c in L) for L in ll), st.median(max(c['end'] for c in L) for L in ll),
             st.median(max(c['exit'] for c in L) for L in ll)))
print('P13: projkit us per mode (mode 0 = mean of its two runs; baseline / floor in brackets);')
print('     stamps: median over launches of (median first stage / last main-loop end / last exit), us')
modes = sorted({k for v in t.values() for k in v})
for key in sorted(t):
    v = t[key]
    b = st.mean(x[1] for x in v.get(0, [(0, 0, 0)])); fl = st.mean(x[2] for x in v.get(0, [(0, 0, 0)]))
    line = f'{key[0]:8s} M {key[1]:3d} [{b:5.2f} / {fl:5.2f}]'
    for md in modes:
        if md in v: line += f' | {NAME[md]} {st.mean(x[0] for x in v[md]):6.2f}'
    print(line)
    s = stamp.get(key, {})
    line = ' ' * 30
    for md in modes:
        if md in s: line += f' | {NAME[md]} {st.mean(x[0] for x in s[md]):.2f}/{st.mean(x[1] for x in s[md]):.2f}/{st.mean(x[2] for x in s[md]):.2f}'
    print(line)
PY
tar cJf "$O/stamps.tar.xz" -C "$O" stamps && rm -rf "$O/stamps"
tar cJf "$O/bench-json.tar.xz" -C "$O" $(cd "$O" && ls b-*.json) && rm -f "$O"/b-*.json
