#!/usr/bin/env bash
# Session 27, call 3: two questions about the read floor; no kernel or plan change.
# 1. P27: does the floor depend on what its buffer holds? `projkit floor` (default workload) with
#    --fill zero (cudaMemset, every floor so far) and --fill weights (bf16 values drawn as the
#    bench's W), in the order zero weights weights zero; per payload the floor and its best variant.
# 2. P28: what holds a stream's first unit? The light stamps build's floor with PROJKIT_FLOOR_STAMPS=1
#    and --order-probes on a small workload (qkv / pooler / unpooler / router at M 1 and 16), fill
#    zero and weights: first unit landed (median CTA, us from the earliest entry) of the interleaved
#    bulk stream with 8 units in flight per CTA against P28's shallow rings of 1 and 2.
# 3. The LabGpu suite (FloorProbeSmoke now also runs the weights fill and P28's two probes).
# Usage: tools/experiments/call3_s27.sh BIN LIGHT_STAMPS_BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/p27" "$O/p28"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== LabGpu suite ($(date +%T))"
timeout 200 "$BIN/projkit_gpu_tests" --gtest_filter='LabGpu.*' >"$O/gtest-lab.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gtest-lab.txt" | tr '\n' ' ')"
echo "== P27 floor fills ($(date +%T))"
n=0
for fill in zero weights weights zero; do
  n=$((n + 1))
  timeout 150 "$BIN/projkit" floor --fill "$fill" --json "$O/p27/floor-$n-$fill.json" >"$O/p27/floor-$n-$fill.txt" 2>&1 ||
    echo "floor $fill rc=$?"
done
python3 - "$O/p27" <<'PY' | tee "$O/p27.txt"
import glob, json, os, statistics as st, sys
res = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'floor-*.json'))):
    fill = os.path.basename(f)[:-5].split('-')[-1]
    for fl in json.load(open(f))['floors']:
        r = res.setdefault(fl['bytes'], {}).setdefault(fill, {'floor': [], 'best': []})
        r['floor'].append(fl['floor_us']); r['best'].append(fl['best'])
        for v in fl['variants']:
            r.setdefault(v['name'], []).append(v['us'])
print('P27: floor us per payload, mean of two runs per fill (best variant); change zero -> weights')
for b, v in sorted(res.items()):
    if 'zero' not in v or 'weights' not in v: continue
    z, w = st.mean(v['zero']['floor']), st.mean(v['weights']['floor'])
    print(f'{b / 1e6:7.2f} MB  zero {z:6.2f} ({v["zero"]["best"][0][-30:]})  weights {w:6.2f} ({v["weights"]["best"][0][-30:]})  {100 * (w / z - 1):+.1f} %')
    for name in sorted(k for k in v['zero'] if k not in ('floor', 'best')):
        if name in v['weights']:
            a, c = st.mean(v['zero'][name]), st.mean(v['weights'][name])
            print(f'      {name[-40:]:40s} {a:6.2f} -> {c:6.2f} ({100 * (c / a - 1):+.1f} %)')
PY
tar cJf "$O/p27.tar.xz" -C "$O" p27 && rm -rf "$O/p27"
echo "== P28 floor stamps ($(date +%T))"
echo '{"name": "p28", "families": ["qkv", "pooler", "unpooler", "router"], "loads": [1, 16]}' >"$O/p28/workload.json"
for fill in zero weights; do
  PROJKIT_FLOOR_STAMPS=1 timeout 150 "$SBIN/projkit" floor --order-probes --fill "$fill" --workload "$O/p28/workload.json" \
    --json "$O/p28/floor-$fill.json" >"$O/p28/floor-$fill.txt" 2>"$O/p28/stamps-$fill.txt"; echo "floor stamps $fill rc=$?"
done
python3 - "$O/p28" <<'PY' | tee "$O/p28.txt"
import os, re, sys
print('P28: TMA streams, us from the earliest entry, median over 8 launches: first unit landed med / max, '
      'last landed med, fill issued med')
for fill in ('zero', 'weights'):
    for line in open(os.path.join(sys.argv[1], f'stamps-{fill}.txt')):
        m = re.match(r'STAMPS floor (\S+) bytes=(\d+) ctas=(\d+).*first landed med ([\d.]+) max ([\d.]+) \| last landed med ([\d.]+) max ([\d.]+) \| last exit ([\d.]+) \| fill issued med ([\d.]+)', line)
        if m and 'bulk16k' in m.group(1) and ('interleaved' in m.group(1)):
            print(f'  {fill:7s} {m.group(1)[-34:]:34s} {int(m.group(2)) / 1e6:6.1f} MB ctas {m.group(3):>3s}: first {m.group(4)} / {m.group(5)} '
                  f'last {m.group(6)} fill {m.group(9)}')
PY
tar cJf "$O/p28.tar.xz" -C "$O" p28 && rm -rf "$O/p28"
echo "done ($SECONDS s)"
