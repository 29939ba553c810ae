#!/usr/bin/env bash
# Ledger E39 (session 10): router_hilo_ring with the token-slice pair as a cluster that shares each
# W tile by multicast (config key wmc1) against the shipped ring config. One device call, every
# step under its own timeout.
# Usage: tools/experiments/e39_ring_w_multicast.sh BIN_DIR OUT_DIR
#   GPU suite Router* (every ring config incl. wmc1: fp64 at 15 M, NaN/Inf, graph replay, two
#   Projections on two streams), `projkit check` of wmc1 over M 1..256, `projkit bench --method`
#   zw1 / wmc1 / wmc1 / zw1 at M 64..256 (100 pairs; wmc1 runs its multicast path at M 2..128).
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 90 "$BIN/projkit_gpu_tests" --gtest_filter='Router*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | head -8
R=router_hilo_ring.split16.wgn1.ts2.zw1
timeout 40 "$BIN/projkit" check --method "$R.wmc1" --families router --m 1..256 --json "$O/check-wmc1.json" >"$O/check-wmc1.txt" 2>&1
echo "check wmc1 rc=$? $(tail -1 "$O/check-wmc1.txt")"
i=0
for c in "$R" "$R.wmc1" "$R.wmc1" "$R"; do
  i=$((i + 1)); v=$([ "$c" = "$R" ] && echo zw1 || echo wmc1)
  timeout 40 "$BIN/projkit" bench --method "$c" --families router --loads 33,64,96,128,160,256 --pairs 100 \
    --json "$O/bench-$i-$v.json" >"$O/bench-$i-$v.txt" 2>&1 || echo "bench $i $v rc=$?"
done
python3 - "$O" <<'PY'
import glob, json, os, statistics, sys
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    v = os.path.basename(f)[:-5].rsplit('-', 1)[1]
    try:
        for c in json.load(open(f))['cases']:
            rows.setdefault(c['m'], {}).setdefault(v, []).append(c)
    except Exception as e:
        print(f, 'unreadable:', e)
print('router M | floor | zw1 us (2) | wmc1 us (2) | ratio zw1 / wmc1 | wmc1 - zw1 us')
for m in sorted(rows):
    r = rows[m]
    if 'zw1' not in r or 'wmc1' not in r: continue
    a = [c['cand_us'] for c in r['zw1']]; b = [c['cand_us'] for c in r['wmc1']]
    print(m, '| %.2f |' % r['zw1'][0]['floor_us'], ' '.join('%.2f' % x for x in a), '|', ' '.join('%.2f' % x for x in b),
          '| %.3f / %.3f | %+.2f' % (statistics.mean(c['ratio'] for c in r['zw1']), statistics.mean(c['ratio'] for c in r['wmc1']),
                                      statistics.mean(b) - statistics.mean(a)))
PY
