#!/usr/bin/env bash
# Ledger E33 (issue 6): wgmma_tma configs with two token tiles (grid.y = 2), whose CTAs read each
# W box twice, now with W evict-normal instead of evict-first (E29 measured the first pair with
# evict-first), against the shipped plan, one device call.
# Usage: tools/experiments/e33_wgmma_two_token_tiles.sh BIN_DIR OUT_DIR
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 400 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaFamily.*:Dense/WgmmaTmaRed4.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | head
P=wgmma_tma.bn128
# tag family loads method (plan = the shipped plan) [check range]
while read -r tag fam loads method range; do
  if [ -n "${range:-}" ]; then
    timeout 120 "$BIN/projkit" check --method "$method" --families "$fam" --m "$range" --json "$O/check-$tag.json" >"$O/check-$tag.txt" 2>&1
    echo "check $tag rc=$?"
  fi
  margs=(); [ "$method" != plan ] && margs=(--method "$method")
  timeout 150 "$BIN/projkit" bench "${margs[@]}" --families "$fam" --loads "$loads" --pairs 80 --json "$O/bench-$tag.json" >"$O/bench-$tag.txt" 2>&1
  echo "bench $tag rc=$?"
done <<LIST
unp-plan unpooler 80,96,112,128,160,192,224,256 plan
unp-s1a unpooler 80,96,112,128 $P.bm64.split1.mc1.stages8.xfit1 65..128
unp-s1b unpooler 160,192,224,256 $P.bm128.split1.mc1.stages6.xfit1 129..256
pool-plan pooler 160,192,224,256 plan
pool-2t pooler 160,192,224,256 $P.bm128.split2.mc1.stages6.red4 129..256
qkv-plan qkv 160,192,224,256 plan
qkv-2t qkv 160,192,224,256 $P.bm128.split3.mc1.stages6.red4 129..256
LIST
python3 - "$O" <<'PY'
import glob, json, os, sys
O = sys.argv[1]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    tag = os.path.basename(f)[6:-5]
    try:
        for c in json.load(open(f))['cases']:
            rows.setdefault((c['family'], c['m']), {})['plan' if tag.endswith('plan') else 'cand'] = c
    except Exception as e:
        print(tag, 'unreadable:', e)
for f in sorted(glob.glob(O + '/check-*.json')):
    try:
        d = json.load(open(f)); w = max(d['cases'], key=lambda c: c['worst_row_rel_l2'])
        print(os.path.basename(f), 'pass', d['pass'], 'cases', len(d['cases']), 'worst row %.2e (M=%d)' % (w['worst_row_rel_l2'], w['m']))
    except Exception as e:
        print(os.path.basename(f), 'unreadable:', e)
print('family M floor | plan method | plan us/ratio | two-token-tile config us/ratio')
for k in sorted(rows):
    r = rows[k]; p = r.get('plan'); c = r.get('cand')
    print(k[0], k[1], '| %.2f |' % (p or c)['floor_us'], p['method'][:50] if p else '-',
          '| %.2f/%.3f' % (p['cand_us'], p['ratio']) if p else '| -', '| %.2f/%.3f' % (c['cand_us'], c['ratio']) if c else '| -')
PY
