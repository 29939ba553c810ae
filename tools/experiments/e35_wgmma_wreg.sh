#!/usr/bin/env bash
# Ledger E35 (issues 5, 6): wgmma_tma red5 with W streamed by the consumers' 16-byte loads into
# registers and wgmma with A from registers (config key wreg), against the same config without
# it, one device call.
# Usage: tools/experiments/e35_wgmma_wreg.sh BIN_DIR OUT_DIR
#   Steps: GPU suites Dense/WgmmaTmaRed5 (every red5 config incl. wreg, 15 M, three launches) and
#   Dense/SplitkStream (graph replay, two streams, NaN); `projkit check --method` of each wreg
#   config over its token tile's M range; `projkit bench --method` of base and wreg (60 pairs).
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5.*:Dense/SplitkStream.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)|Failure' "$O/gtest.txt" | head
P=wgmma_tma.bn128
# family loads bm split stages
while read -r fam loads bm split st; do
  base="$P.bm$bm.split$split.mc1.stages$st.xfit1.red5"
  case $bm in 64) r=1..64 ;; 128) r=65..128 ;; esac
  for c in "$base" "$base.wreg1"; do
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
pooler 16,32,64 64 2 8
pooler 96,128 128 4 6
unpooler 24,32,64 64 2 8
unpooler 96,128 128 2 6
LIST
python3 - "$O" <<'PY'
import glob, json, os, sys
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    fam, bm, split, var = os.path.basename(f)[6:-5].split('-')
    try:
        for c in json.load(open(f))['cases']:
            rows.setdefault((fam, c['m'], bm, split), {})['wreg' if var == 'wreg1' else 'base'] = c
    except Exception as e:
        print(f, 'unreadable:', e)
for f in sorted(glob.glob(O + '/check-*.json')):
    try:
        d = json.load(open(f)); w = max(d['cases'], key=lambda c: c['worst_row_rel_l2'])
        print(os.path.basename(f), 'pass', d['pass'], 'cases', len(d['cases']), 'worst row %.2e (M=%d)' % (w['worst_row_rel_l2'], w['m']))
    except Exception as e:
        print(os.path.basename(f), 'unreadable:', e)
print('family M bm split floor | base us/ratio | wreg1 us/ratio   (ratio vs the baseline of the same process)')
for k in sorted(rows):
    r = rows[k]; fl = next(iter(r.values()))['floor_us']
    print(k[0], k[1], k[2], k[3], '%.2f |' % fl, ' | '.join(('%.2f/%.3f' % (r[v]['cand_us'], r[v]['ratio'])) if v in r else '-' for v in ('base', 'wreg')))
PY
