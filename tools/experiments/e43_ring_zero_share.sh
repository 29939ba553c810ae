#!/usr/bin/env bash
# Ledger E43 (session 11): router_hilo_ring with its K splits sharing the zeroing of each y block
# after their first stage landed (zw2, the protocol E42 gave wgmma_tma red5), against the plan's
# zw1 (K split 0 zeroes the whole block at kernel start).
# Usage: tools/experiments/e43_ring_zero_share.sh BIN_DIR OUT_DIR
#   GPU suite Router/RouterFamily.* (every router config incl. zw2: fp64, NaN, graph replay, two
#   streams), `projkit check --method` of zw2 over M 33..256, `projkit bench --method` zw1 / zw2 /
#   zw2 / zw1 at M 65, 96, 128, 192, 256 (150 pairs).
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 120 "$BIN/projkit_gpu_tests" --gtest_filter='Router/RouterFamily.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | head -8
C=router_hilo_ring.split16.wgn1.ts2
timeout 60 "$BIN/projkit" check --method "$C.zw2" --families router --m 33..256 --json "$O/check-zw2.json" >"$O/check-zw2.txt" 2>&1
echo "check zw2 rc=$? $(tail -1 "$O/check-zw2.txt")"
i=0
for v in zw1 zw2 zw2 zw1; do
  i=$((i + 1))
  timeout 40 "$BIN/projkit" bench --method "$C.$v" --families router --loads 65,96,128,192,256 --pairs 150 \
    --json "$O/bench-$i-$v.json" >"$O/bench-$i-$v.txt" 2>&1 || echo "bench $i $v rc=$?"
done
python3 - "$O" <<'PY'
import glob, json, os, statistics as st, sys
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    v = os.path.basename(f)[:-5].rsplit('-', 1)[1]
    for c in json.load(open(f))['cases']:
        rows.setdefault(c['m'], {}).setdefault(v, []).append(c['cand_us'])
print('router M | zw1 us | zw2 us | zw2 - zw1')
for m in sorted(rows):
    r = rows[m]
    print(m, '|', ' '.join('%.2f' % x for x in r.get('zw1', [])), '|', ' '.join('%.2f' % x for x in r.get('zw2', [])),
          '| %+.2f' % (st.mean(r['zw2']) - st.mean(r['zw1'])) if 'zw1' in r and 'zw2' in r else '')
PY
