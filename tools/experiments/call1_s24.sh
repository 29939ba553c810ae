#!/usr/bin/env bash
# Session 24, call 1: P24, where the 64 MB small-M streams lose their 1.4-1.8 us to the floor.
# (Run Z: pooler M 8..32 1.07-1.09x, unpooler M 16 / 32 1.10x, qkv M 8..32 1.08-1.11x its floor.)
# 1. `projkit floor --order-probes` on the six sizes of qkv / pooler / unpooler at M 16 / 32 (once):
#    besides the floor variants, the interleaved bulk stream over the grids of the plan's slab
#    configs (64 / 72 / 128 CTAs, src/lab/floor.cu): the W bytes of the dense kernels in their own
#    order (ki1 + wsl1), with no x, no tensor work and no epilogue. If those stream as fast as one
#    CTA per SM, the gap is in the kernel, not in its grid or order.
# 2. `projkit bench` of the plan on the same cases (200 pairs): the kernels' times in the same call.
# 3. P13's skip probe (p13_skip_probe.sh, stamps build) on the plan's slab configs at pooler M 16,
#    unpooler M 32, qkv M 16: all / no x / no adds / neither, with per-CTA stamps (first stage, last
#    main-loop end, last exit). A diagnostic: no plan rule.
# Usage: tools/experiments/call1_s24.sh BIN STAMPS_BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
S64=$W.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1   # pooler M 6..64, unpooler M 9..64
Q64=$W.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1   # qkv M 2..64
echo '{"name": "p24", "families": ["qkv", "pooler", "unpooler"], "loads": [16, 32]}' >"$O/p24-workload.json"
for r in 1; do  # one run (the A/B of call 2 shares the 600 s)
  echo "== floor $r ($(date +%T))"
  timeout 240 "$BIN/projkit" floor --order-probes --workload "$O/p24-workload.json" --json "$O/floor-$r.json" \
    >"$O/floor-$r.txt" 2>&1; echo "floor $r rc=$?"
done
echo "== bench ($(date +%T))"
timeout 240 "$BIN/projkit" bench --workload "$O/p24-workload.json" --pairs 200 --json "$O/bench.json" >"$O/bench.txt" 2>&1
echo "bench rc=$?"
echo "== P13 at small M ($(date +%T))"
SKIP_TESTS=1 MODES="0 1 8 9 0" CASES="pooler:16:$S64 unpooler:32:$S64 qkv:16:$Q64" \
  timeout 300 tools/experiments/p13_skip_probe.sh "$BIN" "$SBIN" "$O/p13" >"$O/p13.txt" 2>&1
echo "p13 rc=$?"
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import json, os, statistics as st, sys
O = sys.argv[1]
fl = {}
for r in (1, 2):
    try:
        for f in json.load(open(os.path.join(O, f'floor-{r}.json')))['floors']:
            for v in f['variants']:
                fl.setdefault(f['bytes'], {}).setdefault(v['name'], []).append(v['us'])
            fl[f['bytes']].setdefault('FLOOR', []).append(f['floor_us'])
    except Exception as e:
        print('floor', r, 'unreadable:', e)
try:
    cases = json.load(open(os.path.join(O, 'bench.json')))['cases']
except Exception as e:
    cases = []; print('bench unreadable:', e)
print('P24: us (floor runs 1 / 2; bench: the plan, 200 pairs)')
names = ['FLOOR', 'tma_stream.box128x64.s8.interleaved', 'tma_stream.bulk16k.s8.interleaved',
         'order.tma_stream.bulk16k.s8.interleaved.g64', 'order.tma_stream.bulk16k.s8.interleaved.g72',
         'order.tma_stream.bulk16k.s8.interleaved.g128']
short = ['floor', 'box.G132', 'bulk.G132', 'bulk.G64', 'bulk.G72', 'bulk.G128']
print('%-13s %8s %9s ' % ('case', 'plan', 'bench_fl') + ' '.join('%15s' % s for s in short))
for c in cases:
    v = fl.get(c['bytes'], {})
    cell = lambda n: '/'.join('%.2f' % x for x in v.get(n, [])) or '-'
    print('%-13s %8.2f %9.2f ' % (f"{c['family']} M{c['m']}", c['cand_us'], c['floor_us']) +
          ' '.join('%15s' % cell(n) for n in names))
print()
try:
    print(open(os.path.join(O, 'p13', 'summary.txt')).read())
except Exception as e:
    print('p13 summary unreadable:', e)
PY
