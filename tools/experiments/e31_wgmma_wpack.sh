#!/usr/bin/env bash
# Ledger E31 (issues 5, 6): wgmma_tma red5 reading W from a copy packed per TMA box (config key
# wpk: [N/128][K/64][128][64], one contiguous 16 KB read per stage) against the plan's red5
# configs, one device call.
# Usage: tools/experiments/e31_wgmma_wpack.sh BIN_DIR OUT_DIR [STAMPS_BIN_DIR]
#   Steps: GPU suites Dense/WgmmaTmaRed5 (every red5 config incl. wpk, 15 M, three launches) and
#   Dense/SplitkStream (graph replay, two streams, NaN); `projkit check --method` of each wpk
#   config over its token tile's M range; `projkit bench --method` of each base config and its
#   wpk twin (60 pairs); with STAMPS_BIN_DIR (a PROJKIT_WGMMA_STAMPS build), the phase stamps of
#   both at three cases. Table last.
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; SB=${3:-}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5.*:Dense/SplitkStream.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | head
P=wgmma_tma.bn128
# family loads bm split stages
while read -r fam loads bm split st; do
  base="$P.bm$bm.split$split.mc1.stages$st.xfit1.red5"
  case $bm in 64) r=1..64 ;; 128) r=65..128 ;; 192) r=129..192 ;; 256) r=193..256 ;; esac
  vars="$base $base.wpk1"
  for c in $vars; do
    tag="$fam-$bm-$split-${c##*.}"
    if [ "$c" != "$base" ]; then
      timeout 120 "$BIN/projkit" check --method "$c" --families "$fam" --m "$r" --json "$O/check-$tag.json" >"$O/check-$tag.txt" 2>&1
      echo "check $tag rc=$?"
    fi
    timeout 120 "$BIN/projkit" bench --method "$c" --families "$fam" --loads "$loads" --pairs 60 --json "$O/bench-$tag.json" >"$O/bench-$tag.txt" 2>&1
  done
done <<'LIST'
qkv 8,16,32,64 64 4 8
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
if [ -n "$SB" ]; then
  while read -r fam m c; do
    for v in "$P.$c" "$P.$c.wpk1"; do
      "$SB/projkit" bench --method "$v" --families $fam --loads $m --pairs 50 >"$O/stamps-$fam-$m-${v##*.}.txt" 2>&1
      echo "== stamps $fam M=$m $v"; grep -A7 'STAMPS wgmma' "$O/stamps-$fam-$m-${v##*.}.txt" | tail -8 | grep -E 'first_data|mainloop_end|exit'
    done
  done <<'LIST2'
pooler 32 bm64.split2.mc1.stages8.xfit1.red5
pooler 128 bm192.split4.mc1.stages5.xfit1.red5
unpooler 128 bm128.split2.mc1.stages6.xfit1.red5
LIST2
fi
python3 - "$O" <<'PY'
import glob, json, os, sys
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    fam, bm, split, var = os.path.basename(f)[6:-5].split('-')
    v = var if var.startswith('wpk') else 'base'
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
print('family M bm split floor | base us/ratio | wpk1   (ratio vs the baseline of the same process)')
for k in sorted(rows):
    r = rows[k]; fl = next(iter(r.values()))['floor_us']
    print(k[0], k[1], k[2], k[3], '%.2f |' % fl, ' | '.join(('%.2f/%.3f' % (r[v]['cand_us'], r[v]['ratio'])) if v in r else '-' for v in ('base', 'wpk1')))
PY
