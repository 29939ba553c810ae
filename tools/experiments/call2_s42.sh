#!/usr/bin/env bash
# Session 42, the next call, on whichever card comes.
# H200: E109 (router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1) against plan Z12b's ring
#   config by call1_s42.sh at router M 65 80 90 100 104 128 160 192 200 208 224 240 256 (one or more M in each
#   of the plan's ring ranges), then the rule (fixed before the call; same as on the H100): a range
#   moves to E109 only where E109 gains >= 1 % in paired ratio and in time at every measured M of it.
#   The plan so made is written to OUT/h200.json; if it differs from plans/h200.json, the default
#   bench (200 pairs) and check M 1..256 run on it (device_results.sh with PROJKIT_PLAN).
# H100: the H100 plan as committed (193..256 moved to E109 by session 42's calls 1-2): the default
#   bench (200 pairs) and check M 1..256 (device_results.sh "bench check").
# Usage: tools/experiments/call2_s42.sh BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ $name != *H200* ]]; then
  BENCH_PAIRS=200 tools/device_results.sh "$BIN" "$O/res" "bench check" 2>&1 | tail -6
  echo "done on $name ($SECONDS s)"; exit 0
fi
MS="65 80 90 100 104 128 160 192 200 208 224 240 256" tools/experiments/call1_s42.sh "$BIN" "$O" >/dev/null 2>&1
python3 - "$O/summary.txt" plans/h200.json "$O/h200.json" <<'PY' | tee "$O/rule.txt"
import json, re, sys
summ, src, dst = sys.argv[1:]
E = 'router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1'
rows = {}
for line in open(summ):
    m = re.match(r'router\s+M\s+(\d+)\s+(\S+)\s+([\d.]+) us \(([-+][\d.]+)%\)', line)
    if m: rows.setdefault(int(m[1]), []).append((m[2], float(m[3]), float(m[4])))
plan = json.load(open(src))
moved = 0
for e in plan['families']['router']:
    if not e['method'].startswith('router_hilo_ring.split16'): continue
    lo, hi = e['m']
    ms = [m for m in rows if lo <= m <= hi and len(rows[m]) == 2]
    ok = bool(ms) and all(rows[m][1][2] >= 1.0 and rows[m][1][1] < rows[m][0][1] for m in ms)
    print(f'range {lo}..{hi}: measured at {ms}: ' + ' '.join(f'{rows[m][1][2]:+.1f}%' for m in sorted(ms)) + (' -> E109' if ok else ' -> stays'))
    if ok: e['method'] = E; moved += 1
open(dst, 'w').write(json.dumps(plan, indent=2))
print(f'{moved} ranges moved')
PY
if ! grep -q "^0 ranges moved" "$O/rule.txt"; then
  PROJKIT_PLAN="$O/h200.json" BENCH_PAIRS=200 tools/device_results.sh "$BIN" "$O/res" "bench check" 2>&1 | tail -6
fi
echo "== E109 A/B"; cat "$O/summary.txt"; echo "== rule"; cat "$O/rule.txt"
echo "done on $name ($SECONDS s)"
