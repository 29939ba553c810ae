#!/usr/bin/env bash
# Ledger E36 (issues 4-6; prepared in session 9, branch e36-cp-async-w): the floor probe's
# cp.async ring stream against the LSU and TMA streams; wgmma_tma red5 with W copied into the
# ring by two cp.async loader warps (config key wcp) against the same config with TMA; the router
# ring with its W tiles copied by the producer warp's cp.async lanes; one device call.
# Usage: tools/experiments/e36_wgmma_wcp.sh BIN_DIR OUT_DIR
#   Steps: `projkit floor` (LSU, TMA box / bulk and cp.async variants; table of the whole-tile
#   payloads), GPU suites LabGpu.* and Dense/WgmmaTmaRed5 + Dense/SplitkStream (every red5 config
#   incl. wcp); `projkit check --method` of each wcp config over its token tile's M range;
#   `projkit bench --method` of base and wcp (60 pairs).
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 120 "$BIN/projkit" floor --json "$O/floor.json" >"$O/floor.txt" 2>&1; echo "floor rc=$?"
python3 - "$O/floor.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d['floors']:
    v = {x['name']: x['us'] for x in f['variants']}
    lsu = min(u for n, u in v.items() if n.startswith('stream_read'))
    print('%6.1f MB LSU %6.2f | ' % (f['bytes'] / 1e6, lsu) + ' | '.join('%s %.2f x%.3f' % (n.split('.')[0] + '.' + n.split('.')[1], u, u / lsu) for n, u in v.items() if not n.startswith('stream_read')))
PY
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='LabGpu.*:Dense/WgmmaTmaRed5.*:Dense/SplitkStream.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)|Failure' "$O/gtest.txt" | head
P=wgmma_tma.bn128
# family loads bm split stages
while read -r fam loads bm split st; do
  base="$P.bm$bm.split$split.mc1.stages$st.xfit1.red5"
  case $bm in 64) r=1..64 ;; 128) r=65..128 ;; 192) r=129..192 ;; 256) r=193..256 ;; esac
  for c in "$base" "$base.wcp1"; do
    tag="$fam-$bm-$split-${c##*.}"
    if [ "$c" != "$base" ]; then
      timeout 120 "$BIN/projkit" check --method "$c" --families "$fam" --m "$r" --json "$O/check-$tag.json" >"$O/check-$tag.txt" 2>&1
      echo "check $tag rc=$?"
    fi
    timeout 120 "$BIN/projkit" bench --method "$c" --families "$fam" --loads "$loads" --pairs 60 --json "$O/bench-$tag.json" >"$O/bench-$tag.txt" 2>&1
  done
done <<'LIST'
qkv 4,8,16,32,64 64 4 8
qkv 96,128 128 4 6
qkv 192 192 7 5
qkv 256 256 7 4
pooler 16,32,64 64 2 8
pooler 128,192 192 4 5
pooler 256 256 4 4
unpooler 24,32,64 64 2 8
unpooler 96,128 128 2 6
unpooler 192 192 2 5
unpooler 256 256 2 4
LIST
# the router ring with the W tiles by cp.async lanes (wcp1) against the shipped ring config
R=router_hilo_ring.split16.wgn1.ts2.zw1
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='Router*' >"$O/gtest-router.txt" 2>&1
echo "gtest router rc=$?"; grep -E '^\[  (PASSED|FAILED)|Failure' "$O/gtest-router.txt" | head
timeout 120 "$BIN/projkit" check --method "$R.wcp1" --families router --m 1..256 --json "$O/check-router-wcp1.json" >"$O/check-router-wcp1.txt" 2>&1
echo "check router wcp1 rc=$?"
for c in "$R" "$R.wcp1"; do
  timeout 120 "$BIN/projkit" bench --method "$c" --families router --loads 64,96,128,192,256 --pairs 100 \
    --json "$O/router-bench-${c##*.}.json" >"$O/router-bench-${c##*.}.txt" 2>&1
  echo "bench $c rc=$?"
done
python3 - "$O" <<'PY'
import json, sys
O = sys.argv[1]
try:
    a = {c['m']: c for c in json.load(open(O + '/router-bench-zw1.json'))['cases']}
    b = {c['m']: c for c in json.load(open(O + '/router-bench-wcp1.json'))['cases']}
    print('router M | floor | ring zw1 us/ratio | ring zw1.wcp1 us/ratio')
    for m in sorted(a):
        print(m, '| %.2f | %.2f/%.3f | %s' % (a[m]['floor_us'], a[m]['cand_us'], a[m]['ratio'],
              '%.2f/%.3f' % (b[m]['cand_us'], b[m]['ratio']) if m in b else '-'))
except Exception as e:
    print('router tables unreadable:', e)
PY
python3 - "$O" <<'PY'
import glob, json, os, sys
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    fam, bm, split, var = os.path.basename(f)[6:-5].split('-')
    try:
        for c in json.load(open(f))['cases']:
            rows.setdefault((fam, c['m'], bm, split), {})['wcp' if var == 'wcp1' else 'base'] = c
    except Exception as e:
        print(f, 'unreadable:', e)
for f in sorted(glob.glob(O + '/check-*.json')):
    try:
        d = json.load(open(f)); w = max(d['cases'], key=lambda c: c['worst_row_rel_l2'])
        print(os.path.basename(f), 'pass', d['pass'], 'cases', len(d['cases']), 'worst row %.2e (M=%d)' % (w['worst_row_rel_l2'], w['m']))
    except Exception as e:
        print(os.path.basename(f), 'unreadable:', e)
print('family M bm split floor | base us/ratio | wcp1 us/ratio   (ratio vs the baseline of the same process)')
for k in sorted(rows):
    r = rows[k]; fl = next(iter(r.values()))['floor_us']
    print(k[0], k[1], k[2], k[3], '%.2f |' % fl, ' | '.join(('%.2f/%.3f' % (r[v]['cand_us'], r[v]['ratio'])) if v in r else '-' for v in ('base', 'wcp')))
PY
