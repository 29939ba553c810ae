#!/usr/bin/env bash
# Session 25, call 2: P25b. P25 (call 1) found the small-M slab kernels stream at their grid's rate
# (3.93-4.04 TB/s against the interleaved probe's 3.97-4.04) with an intercept 1.3-1.8 us above it:
# the gap is a fixed cost. Where in the call: the start (first stage later than the probe's first
# unit) or the end (main-loop end to exit)? Both kernels stamped in a light stamps build
# (-DPROJKIT_WGMMA_STAMPS -DPROJKIT_STAMPS_LIGHT: no probe reads of device symbols, no P6 load; the
# floor probe's stamps held in registers and stored at the CTA's end):
# 1. `projkit floor --order-probes` with PROJKIT_FLOOR_STAMPS=1 on qkv / pooler / unpooler at M 16:
#    8 stamped launches per TMA variant (g72 / g64 / g128: the kernels' grids and W order);
# 2. p13_skip_probe.sh mode 0 x 3 (bench processes, 100 pairs, stamps CSV) on the plan's M 16 slab
#    configs, and the production binary's bench on the same cases ("prod"): the light build's time
#    next to production's tells whether its stamps moved the kernel.
# A diagnostic: no plan rule.
# Usage: tools/experiments/call2_s25.sh BIN LIGHT_STAMPS_BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
S64=$W.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1   # pooler M 6..64, unpooler M 9..64
Q64=$W.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1   # qkv M 2..64
echo '{"name": "p25b", "families": ["qkv", "pooler", "unpooler"], "loads": [16]}' >"$O/p25b-workload.json"
echo "== P25b floor stamps ($(date +%T))"
PROJKIT_FLOOR_STAMPS=1 timeout 200 "$SBIN/projkit" floor --order-probes --workload "$O/p25b-workload.json" \
  --json "$O/floor.json" >"$O/floor.txt" 2>"$O/floor-stamps.txt"; echo "floor rc=$?"
echo "== P25b kernel stamps ($(date +%T))"
SKIP_TESTS=1 MODES="0 0 0" CASES="qkv:16:$Q64 pooler:16:$S64 unpooler:16:$S64" \
  timeout 200 tools/experiments/p13_skip_probe.sh "$BIN" "$SBIN" "$O/p13" >"$O/p13.txt" 2>&1; echo "p13 rc=$?"
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import os, re, statistics as st, sys, tarfile, io, csv
O = sys.argv[1]
print('P25b floor probe stamps (us from the earliest entry, median over 8 launches):')
for line in open(os.path.join(O, 'floor-stamps.txt')):
    m = re.match(r'STAMPS floor (\S+) bytes=(\d+) ctas=(\d+).*first landed med ([\d.]+) max ([\d.]+) \| last landed med ([\d.]+) max ([\d.]+) \| last exit ([\d.]+) \| fill issued med ([\d.]+)', line)
    if m and ('interleaved' in m.group(1)):
        print(f'  {m.group(1)[-28:]:28s} {int(m.group(2)) / 1e6:6.1f} MB ctas {m.group(3):>3s}: first med/max {m.group(4)}/{m.group(5)} '
              f'last med/max {m.group(6)}/{m.group(7)} exit {m.group(8)} fill {m.group(9)}')
print('P25b kernel stamps (light build; us from the earliest CTA start, median over launches):')
sys.path.insert(0, os.path.join(os.getcwd(), 'tools', 'experiments'))
from p4_analyze import launches
import tempfile
tf = os.path.join(O, 'p13', 'stamps.tar.xz')
if os.path.exists(tf):
    with tempfile.TemporaryDirectory() as d:
        tarfile.open(tf).extractall(d)
        for f in sorted(os.listdir(os.path.join(d, 'stamps'))):
            if not f.endswith('.csv'): continue
            ll = [L for v in launches(os.path.join(d, 'stamps', f)).values() for L in v if len(L) >= 8]
            if not ll: continue
            md = lambda key, agg: st.median(agg([c[key] for c in L]) for L in ll)
            print(f'  {f[2:-4]:18s} launches {len(ll):3d} ctas {len(ll[0]):3d}: fill issued med {md("issue", st.median):.2f} '
                  f'first med/max {md("first", st.median):.2f}/{md("first", max):.2f} end med/max {md("end", st.median):.2f}/'
                  f'{md("end", max):.2f} exit {md("exit", max):.2f}')
PY
tail -8 "$O/p13/summary.txt"
tar cJf "$O.tar.xz" -C "$(dirname "$O")" "$(basename "$O")" && echo "packed $O.tar.xz"
