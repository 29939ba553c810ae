#!/usr/bin/env bash
# Ledger E42 (session 11): wgmma_tma red5 with the y tile's zeroing shared by its K splits. E41:
# moving split 0's zeroing after its first stage (zo2) gained 0.1-0.8 us, but split 0 still ends
# up to 0.8 us after the others at bm256 (64 KB of zero stores from one SM). zo4: every split
# zeroes its 1/split share of the rows after its first stage, counting in on a per-tile word;
# zo5: the same in eight parts paced by nanosleep.
# Usage: tools/experiments/e41_zero_owner.sh BIN_DIR STAMPS_BIN_DIR OUT_DIR
#   GPU suites Dense/WgmmaTmaRed5.* and Dense/SplitkStream.* (every config incl. zo2, zo4, zo5),
#   `projkit check --method` of each zo4 / zo5 shape over its range, `projkit bench --method`
#   base / zo2 / zo4 / zo5 / zo5 / zo4 / zo2 / base (100 pairs), and the P4 stamps of each
#   (STAMPS_BIN_DIR: a -DPROJKIT_WGMMA_STAMPS=1 build).
set -u
BIN=${1:?bin dir}; SB=${2:?stamps bin dir}; O=${3:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 200 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5.*:Dense/SplitkStream.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | head -8
P=wgmma_tma.bn128
# families loads shape(bm.split.stages) check-range
while read -r fams loads shape range; do
  base="$P.bm${shape%%.*}.split$(echo "$shape" | cut -d. -f2).mc1.stages$(echo "$shape" | cut -d. -f3).xfit1.red5"
  tag=$(echo "$fams-$shape" | tr ',.' '__')
  for v in zo4 zo5; do
    timeout 60 "$BIN/projkit" check --method "$base.$v" --families "$fams" --m "$range" --json "$O/check-$tag-$v.json" >"$O/check-$tag-$v.txt" 2>&1
    echo "check $tag $v rc=$? $(tail -1 "$O/check-$tag-$v.txt")"
  done
  i=0
  for v in base zo2 zo4 zo5 zo5 zo4 zo2 base; do
    i=$((i + 1)); c=$([ "$v" = base ] && echo "$base" || echo "$base.$v")
    timeout 40 "$BIN/projkit" bench --method "$c" --families "$fams" --loads "$loads" --pairs 100 \
      --json "$O/bench-$tag-$i-$v.json" >"$O/bench-$tag-$i-$v.txt" 2>&1 || echo "bench $tag $i $v rc=$?"
  done
done <<'LIST'
qkv 8,32,64 64.4.8 1..64
qkv 96,128 128.4.6 65..128
qkv 192 192.7.5 129..192
qkv 256 256.7.4 193..256
pooler,unpooler 16,32,64 64.2.8 1..64
pooler 96 128.4.6 65..120
pooler 128,192 192.4.5 121..192
pooler 256 256.4.4 193..256
unpooler 96,128 128.2.6 65..128
unpooler 192 192.2.5 129..192
unpooler 256 256.2.4 193..256
LIST
# stamps (P4 layout: config, cta, ks, tile, smid, ns start, first, end, parked, half, reduced, exit)
mkdir -p "$O/stamps"
for v in base zo2 zo4 zo5; do
  while read -r fam m shape; do
    base="$P.bm${shape%%.*}.split$(echo "$shape" | cut -d. -f2).mc1.stages$(echo "$shape" | cut -d. -f3).xfit1.red5"
    c=$([ "$v" = base ] && echo "$base" || echo "$base.$v")
    PROJKIT_WGMMA_STAMPS_CSV="$O/stamps/stamps-$v.csv" timeout 30 "$SB/projkit" bench --method "$c" --families "$fam" \
      --loads "$m" --pairs 50 >"$O/stamps/bench-$fam-$m-$v.txt" 2>&1 || echo "stamps $fam $m $v rc=$?"
  done <<'LIST'
qkv 8 64.4.8
unpooler 32 64.2.8
pooler 128 192.4.5
qkv 256 256.7.4
pooler 256 256.4.4
LIST
done
python3 - "$O" <<'PY'
import csv, glob, json, os, statistics as st, sys
from collections import defaultdict
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    v = os.path.basename(f)[:-5].rsplit('-', 1)[1]
    try:
        for c in json.load(open(f))['cases']:
            meth = c['method']
            for z in ('.zo2', '.zo4', '.zo5'): meth = meth.replace(z, '')
            rows.setdefault((c['family'], c['m'], meth), {}).setdefault(v, []).append(c)
    except Exception as e:
        print(f, 'unreadable:', e)
print('stamps: mean first / end by K split (us), base | zo2 | zo4 | zo5')
for v in ('base', 'zo2', 'zo4', 'zo5'):
    g = defaultdict(lambda: defaultdict(list))
    try:
        for r in csv.reader(open(f'{O}/stamps/stamps-{v}.csv')):
            cfg = r[0].replace('.zo2', '').replace('.zo4', '').replace('.zo5', '').replace('wgmma_tma.bn128.', '').replace('.mc1', '').replace('.xfit1.red5', '')
            g[cfg][int(r[2])].append((int(r[6]) / 1e3, int(r[7]) / 1e3))
    except FileNotFoundError:
        continue
    for cfg, d in g.items():
        print(f' {v} {cfg}: ' + ' '.join('ks%d %.2f/%.2f' % (k, st.mean(a for a, _ in x), st.mean(b for _, b in x)) for k, x in sorted(d.items())))
print('family M method | base us | zo2 us | zo4 us | zo5 us | zo2-base zo4-base zo5-base')
for k in sorted(rows):
    r = rows[k]
    if 'base' not in r: continue
    m = {v: statistics_mean for v, statistics_mean in ((v, st.mean(c['cand_us'] for c in r[v])) for v in r)}
    f = lambda v: ' '.join('%.2f' % c['cand_us'] for c in r.get(v, [])) or '-'
    d = lambda v: '%+.2f' % (m[v] - m['base']) if v in m else '-'
    print(k[0], k[1], k[2][10:48], '|', f('base'), '|', f('zo2'), '|', f('zo4'), '|', f('zo5'), '|', d('zo2'), d('zo4'), d('zo5'))
PY
