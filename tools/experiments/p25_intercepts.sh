#!/usr/bin/env bash
# Session 25, P25: do the small-M dense kernels lose their ~1.3 us to the floor at the start / end
# of the call (a fixed cost) or in the main loop (a slower stream)? Stamp-free: the stamps build
# moves the start (cold device-symbol reads and stores before the first fill), so this times
# production binaries only. The plan's M 16 slab configs run on custom shapes of the same N with K
# halved and doubled (their grids do not depend on K: qkv bm64.split4 72 CTAs, pooler bm64.split2
# 64, unpooler bm64.split2 128), and `projkit floor --order-probes` times the interleaved bulk stream
# over the same grids (g72 / g64 / g128: P24, the kernels' W order) at the same bytes. A least-squares
# line t = a + bytes / rate per kernel and per probe: the kernel's extra intercept is its fixed cost,
# its rate against the probe's the main loop's. A diagnostic: no plan rule.
# Usage: tools/experiments/p25_intercepts.sh BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
S64=$W.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1   # pooler M 6..64, unpooler M 9..64
Q64=$W.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1   # qkv M 2..64
cat >"$O/p25-workload.json" <<'J'
{"name": "p25", "loads": [16], "families": [
 {"base": "qkv", "name": "q4k", "k": 4096}, "qkv", {"base": "qkv", "name": "q16k", "k": 16384},
 {"base": "pooler", "name": "p4k", "k": 4096}, "pooler", {"base": "pooler", "name": "p16k", "k": 16384},
 {"base": "unpooler", "name": "u2k", "k": 2048}, "unpooler", {"base": "unpooler", "name": "u8k", "k": 8192}]}
J
echo "== P25 floor ($(date +%T))"
timeout 300 "$BIN/projkit" floor --order-probes --workload "$O/p25-workload.json" --json "$O/floor.json" \
  >"$O/floor.txt" 2>&1; echo "floor rc=$?"
for g in "q:q4k,qkv,q16k:$Q64" "p:p4k,pooler,p16k:$S64" "u:u2k,unpooler,u8k:$S64"; do
  IFS=: read -r tag fams cfg <<<"$g"
  echo "== P25 bench $tag ($(date +%T))"
  timeout 120 "$BIN/projkit" bench --workload "$O/p25-workload.json" --families "$fams" --loads 16 --method "$cfg" \
    --pairs 200 --json "$O/bench-$tag.json" >"$O/bench-$tag.txt" 2>&1; echo "bench $tag rc=$?"
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import json, os, sys
O = sys.argv[1]
fl = {}
try:
    for f in json.load(open(os.path.join(O, 'floor.json')))['floors']:
        fl[f['bytes']] = {v['name']: v['us'] for v in f['variants']}
        fl[f['bytes']]['FLOOR'] = f['floor_us']
except Exception as e:
    print('floor unreadable:', e)
def fit(pts):  # least squares t = a + b * MB; returns a (us), rate 1 / b (MB/us = TB/s; call 1 printed 1e-6 / b), max |residual| (us)
    n = len(pts); mx = sum(x for x, _ in pts) / n; my = sum(y for _, y in pts) / n
    b = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    a = my - b * mx
    return a, 1 / b if b > 0 else float('nan'), max(abs(y - a - b * x) for x, y in pts)
print('P25: us at M 16 (bench 200 pairs, the plan\'s slab config; floor: one run); fit t = a + MB / rate')
for tag, probe in (('q', 'order.tma_stream.bulk16k.s8.interleaved.g72'), ('p', 'order.tma_stream.bulk16k.s8.interleaved.g64'),
                   ('u', 'order.tma_stream.bulk16k.s8.interleaved.g128')):
    try:
        cases = json.load(open(os.path.join(O, f'bench-{tag}.json')))['cases']
    except Exception as e:
        print(tag, 'bench unreadable:', e); continue
    cases.sort(key=lambda c: c['bytes'])
    kern, prb, flo = [], [], []
    for c in cases:
        v = fl.get(c['bytes'], {})
        print(f"  {c['family']:9s} K {c['k']:5d} {c['bytes'] / 1e6:7.1f} MB  kernel {c['cand_us']:6.2f}  "
              f"probe {v.get(probe, float('nan')):6.2f}  floor {v.get('FLOOR', float('nan')):6.2f}  base {c['base_us']:6.2f}")
        kern.append((c['bytes'] / 1e6, c['cand_us']))
        if probe in v: prb.append((c['bytes'] / 1e6, v[probe]))
        if 'FLOOR' in v: flo.append((c['bytes'] / 1e6, v['FLOOR']))
    for name, pts in (('kernel', kern), (probe.split('.')[-1] + ' probe', prb), ('floor', flo)):
        if len(pts) >= 2:
            a, r, e = fit(pts)
            print(f'  {tag} {name:12s} intercept {a:5.2f} us, rate {r:5.2f} TB/s (max residual {e:.2f} us)')
PY
