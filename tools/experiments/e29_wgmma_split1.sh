#!/usr/bin/env bash
# Ledger E29 (issue 6): wgmma_tma with no split-K for the unpooler at M 65..256 (128 CTAs = 64 N
# tiles x 2 token tiles, whole K each, no combine) against the shipped plan, one device call.
# Usage: tools/experiments/e29_wgmma_split1.sh BIN_DIR OUT_DIR
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
A=wgmma_tma.bn128.bm64.split1.mc1.stages8.xfit1; B=wgmma_tma.bn128.bm128.split1.mc1.stages6.xfit1
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaFamily.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?"; tail -3 "$O/gtest.txt"
timeout 120 "$BIN/projkit" check --method $A --families unpooler,pooler --m 65..128 --json "$O/check-a.json" >"$O/check-a.txt" 2>&1; echo "check a rc=$?"
timeout 120 "$BIN/projkit" check --method $B --families unpooler --m 129..256 --json "$O/check-b.json" >"$O/check-b.txt" 2>&1; echo "check b rc=$?"
L=80,96,112,128; H=160,192,224,256
timeout 150 "$BIN/projkit" bench --families unpooler --loads $L,$H --pairs 80 --json "$O/bench-plan.json" >"$O/bench-plan.txt" 2>&1; echo "bench plan rc=$?"
timeout 150 "$BIN/projkit" bench --method $A --families unpooler --loads $L --pairs 80 --json "$O/bench-a.json" >"$O/bench-a.txt" 2>&1; echo "bench a rc=$?"
timeout 150 "$BIN/projkit" bench --method $B --families unpooler --loads $H --pairs 80 --json "$O/bench-b.json" >"$O/bench-b.txt" 2>&1; echo "bench b rc=$?"
python3 - "$O" <<'PY'
import json, sys
O = sys.argv[1]
rows = {}
for tag in ('plan', 'a', 'b'):
    try:
        for c in json.load(open(f'{O}/bench-{tag}.json'))['cases']:
            rows.setdefault(c['m'], {})[tag] = c
    except Exception as e:
        print(tag, 'unreadable:', e)
print('unpooler M | floor | plan method | plan us/ratio | split1 us/ratio (bm64 at <= 128, bm128 above)')
for m in sorted(rows):
    r = rows[m]; p = r.get('plan'); c = r.get('a') or r.get('b')
    print(m, '| %.2f |' % (p or c)['floor_us'], p['method'] if p else '-', '| %.2f/%.3f' % (p['cand_us'], p['ratio']) if p else '-',
          '| %.2f/%.3f' % (c['cand_us'], c['ratio']) if c else '-')
PY
