#!/usr/bin/env bash
# Ledger E36, second call (session 10): the first call (e36_wgmma_wcp.sh) ran past the device's
# 600 s limit (a wcp step hung until its 120 s timeout, several times) and returned only the pooler
# benches. This one closes E36 with short per-step timeouts: the floor probe incl. the cp.async
# variant, the GPU suites that cover session 9's mends (LabGpu.*, Dense/SplitkStream.*) and the
# router (Router*), the router ring's wcp1 (check 1..256, bench against zw1) and wgmma_tma wcp1
# at its bm64 and bm256 shapes (bench; a hang shows as rc=124).
# Usage: tools/experiments/e36b_closeout.sh BIN_DIR OUT_DIR
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 60 "$BIN/projkit" floor --json "$O/floor.json" >"$O/floor.txt" 2>&1; echo "floor rc=$?"
python3 - "$O/floor.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    for f in d['floors']:
        v = {x['name']: x['us'] for x in f['variants']}
        lsu = min(u for n, u in v.items() if n.startswith('stream_read'))
        print('%6.1f MB LSU %6.2f | ' % (f['bytes'] / 1e6, lsu) + ' | '.join('%s %.2f x%.3f' % (n, u, u / lsu) for n, u in v.items() if not n.startswith('stream_read')))
except Exception as e:
    print('floor unreadable:', e)
PY
timeout 90 "$BIN/projkit_gpu_tests" --gtest_filter='LabGpu.*:Dense/SplitkStream.*:Router*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)|Failure|tests ran' "$O/gtest.txt" | head
R=router_hilo_ring.split16.wgn1.ts2.zw1
timeout 40 "$BIN/projkit" check --method "$R.wcp1" --families router --m 1..256 --json "$O/check-router-wcp1.json" >"$O/check-router-wcp1.txt" 2>&1
echo "check router wcp1 rc=$?"; tail -2 "$O/check-router-wcp1.txt"
for c in "$R" "$R.wcp1"; do
  timeout 40 "$BIN/projkit" bench --method "$c" --families router --loads 64,128,256 --pairs 60 \
    --json "$O/router-${c##*.}.json" >"$O/router-${c##*.}.txt" 2>&1
  echo "bench $c rc=$?"
done
P=wgmma_tma.bn128
for c in "$P.bm64.split4.mc1.stages8.xfit1.red5" "$P.bm64.split4.mc1.stages8.xfit1.red5.wcp1"; do
  timeout 30 "$BIN/projkit" bench --method "$c" --families qkv --loads 8,32 --pairs 60 --json "$O/qkv-${c##*.}.json" >"$O/qkv-${c##*.}.txt" 2>&1
  echo "bench qkv $c rc=$?"
done
timeout 25 "$BIN/projkit" bench --method "$P.bm256.split4.mc1.stages4.xfit1.red5.wcp1" --families pooler --loads 256 --pairs 50 \
  --json "$O/pooler256-wcp1.json" >"$O/pooler256-wcp1.txt" 2>&1
echo "bench pooler 256 bm256 wcp1 rc=$? (124 = hang)"
echo "== family M method base_us cand_us ratio floor"
for f in "$O"/router-*.json "$O"/qkv-*.json "$O"/pooler256-wcp1.json; do
  python3 - "$f" <<'PY'
import json, sys
try:
    for c in json.load(open(sys.argv[1]))['cases']:
        print(c['family'], c['m'], c['method'], '%.2f %.2f %.3f %.2f' % (c['base_us'], c['cand_us'], c['ratio'], c['floor_us']))
except Exception as e:
    print(sys.argv[1], 'unreadable:', e)
PY
done
