#!/usr/bin/env bash
# Ledger E30 (issues 5, 6): wgmma_tma red5 with k-block stealing inside a tile (config key steal)
# against the same config without it (the plan's configs), one device call.
# Usage: tools/experiments/e30_wgmma_steal.sh BIN_DIR OUT_DIR
#   Steps: GPU suites Dense/WgmmaTmaRed5 (every red5 config incl. steal, 15 M, three launches:
#   the counters must be back at zero) and Dense/SplitkStream (graph replay, two streams, NaN);
#   `projkit check --method` of each steal config over its token tile's M range; `projkit bench
#   --method` of each base config and its steal variants (60 pairs). Table last.
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5.*:Dense/SplitkStream.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | head
P=wgmma_tma.bn128
# family loads bm split stages  (steal variants: 2 always, 1 where listed)
while read -r fam loads bm split st s1; do
  base="$P.bm$bm.split$split.mc1.stages$st.xfit1.red5"
  case $bm in 64) r=1..64 ;; 128) r=65..128 ;; 192) r=129..192 ;; 256) r=193..256 ;; esac
  vars="$base $base.steal2"; [ "$s1" = 1 ] && vars="$vars $base.steal1"
  for c in $vars; do
    tag="$fam-$bm-$split-${c##*.}"
    if [ "$c" != "$base" ]; then
      timeout 120 "$BIN/projkit" check --method "$c" --families "$fam" --m "$r" --json "$O/check-$tag.json" >"$O/check-$tag.txt" 2>&1
      echo "check $tag rc=$?"
    fi
    timeout 120 "$BIN/projkit" bench --method "$c" --families "$fam" --loads "$loads" --pairs 60 --json "$O/bench-$tag.json" >"$O/bench-$tag.txt" 2>&1
  done
done <<'LIST'
qkv 8,16,32,64 64 4 8 1
qkv 96,128 128 4 6 1
qkv 192 192 7 5 0
qkv 256 256 7 4 0
pooler 16,32,64 64 2 8 1
pooler 96 128 4 6 1
pooler 128,192 192 4 5 0
pooler 256 256 4 4 0
unpooler 24,32,64 64 2 8 1
unpooler 96,128 128 2 6 1
unpooler 192 192 2 5 0
unpooler 256 256 2 4 0
LIST
python3 - "$O" <<'PY'
import glob, json, os, sys
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    fam, bm, split, var = os.path.basename(f)[6:-5].split('-')
    v = var if var.startswith('steal') else 'base'
    try:
        for c in json.load(open(f))['cases']:
            rows.setdefault((fam, c['m'], bm, split), {})[v] = c
    except Exception as e:
        print(f, 'unreadable:', e)
for f in sorted(glob.glob(O + '/check-*.json')):
    try:
        d = json.load(open(f)); w = max(d['cases'], key=lambda c: c['worst_row_rel_l2'])
        print(os.path.basename(f), 'pass', d['pass'], 'cases', len(d['cases']), 'worst row %.2e (M=%d)' % (w['worst_row_rel_l2'], w['m']))
    except Exception as e:
        print(os.path.basename(f), 'unreadable:', e)
print('family M bm split floor | base us/ratio | steal2 | steal1   (ratio vs the baseline of the same process)')
for k in sorted(rows):
    r = rows[k]; fl = next(iter(r.values()))['floor_us']
    print(k[0], k[1], k[2], k[3], '%.2f |' % fl, ' | '.join(('%.2f/%.3f' % (r[v]['cand_us'], r[v]['ratio'])) if v in r else '-' for v in ('base', 'steal2', 'steal1')))
PY
