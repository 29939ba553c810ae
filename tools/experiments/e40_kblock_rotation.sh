#!/usr/bin/env bash
# Ledger E40 (session 10): wgmma_tma red5 with each N tile starting its contiguous K range at a
# k-block rotated by the tile index (config key krot) against the unrotated ranges of the
# plan's red5 shapes. One device call, every step under its own timeout.
# Usage: tools/experiments/e40_kblock_rotation.sh BIN_DIR OUT_DIR
#   GPU suites Dense/WgmmaTmaRed5.* and Dense/SplitkStream.* (every red5 config incl. krot1: fp64,
#   graph replay, two streams, NaN), `projkit check` of each krot1 config over its M range, then
#   `projkit bench --method` base / krot1 / krot1 / base at the plan's M for that shape (60 pairs).
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 150 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5.*:Dense/SplitkStream.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | head -8
P=wgmma_tma.bn128
# families loads shape(bm.split.stages) check-range
while read -r fams loads shape range; do
  base="$P.bm${shape%%.*}.split$(echo "$shape" | cut -d. -f2).mc1.stages$(echo "$shape" | cut -d. -f3).xfit1.red5"
  tag=$(echo "$fams-$shape" | tr ',.' '__')
  timeout 40 "$BIN/projkit" check --method "$base.krot1" --families "$fams" --m "$range" --json "$O/check-$tag.json" >"$O/check-$tag.txt" 2>&1
  echo "check $tag krot1 rc=$? $(tail -1 "$O/check-$tag.txt")"
  i=0
  for c in "$base" "$base.krot1" "$base.krot1" "$base"; do
    i=$((i + 1)); v=$([ "$c" = "$base" ] && echo base || echo krot1)
    timeout 40 "$BIN/projkit" bench --method "$c" --families "$fams" --loads "$loads" --pairs 60 \
      --json "$O/bench-$tag-$i-$v.json" >"$O/bench-$tag-$i-$v.txt" 2>&1 || echo "bench $tag $i $v rc=$?"
  done
done <<'LIST'
qkv 8,32 64.4.8 1..64
qkv 128 128.4.6 65..128
qkv 256 256.7.4 193..256
pooler,unpooler 16,32 64.2.8 1..64
pooler 128 192.4.5 65..192
pooler 256 256.4.4 193..256
LIST
python3 - "$O" <<'PY'
import glob, json, os, statistics, sys
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    v = os.path.basename(f)[:-5].rsplit('-', 1)[1]
    try:
        for c in json.load(open(f))['cases']:
            rows.setdefault((c['family'], c['m'], c['method'].replace('.krot1', '')), {}).setdefault(v, []).append(c)
    except Exception as e:
        print(f, 'unreadable:', e)
print('family M method | base us (2) | krot1 us (2) | ratio base / krot1 (vs the same process baseline) | krot1 - base us')
for k in sorted(rows):
    r = rows[k]
    if 'base' not in r or 'krot1' not in r: continue
    b = [c['cand_us'] for c in r['base']]; q = [c['cand_us'] for c in r['krot1']]
    rb = statistics.mean(c['ratio'] for c in r['base']); rq = statistics.mean(c['ratio'] for c in r['krot1'])
    print(k[0], k[1], k[2][:50], '|', ' '.join('%.2f' % x for x in b), '|', ' '.join('%.2f' % x for x in q),
          '| %.3f / %.3f | %+.2f' % (rb, rq, statistics.mean(q) - statistics.mean(b)))
PY
