#!/usr/bin/env bash
# P19 (session 19, call 4): is the baseline timed slower in a bench process that holds W's slab
# copies (wsl1)? Per case, bench processes alternate a copy-free config and its wsl1 twin
# (A B B A, twice, 200 pairs each; ab_configs.sh); the table lists each process's baseline and
# candidate median. Usage: tools/experiments/p19_baseline_with_slabs.sh BIN OUT_DIR   (~1.5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
P=wgmma_tma.bn128
for r in 1 2; do
  CASES="unpooler:8:kperm_stream_mma.rt1.wr1.wk8.u8,$P.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1 \
pooler:8:$P.bm64.split2.mc1.stages8.xfit1.red5.rk1,$P.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1 \
qkv:8:$P.bm64.split4.mc1.stages8.xfit1.red5.rk1,$P.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1" \
  TAG=p19r$r tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
done
mkdir -p "$O/j" && for t in "$O"/bench-p19r*.tar.xz; do tar xJf "$t" -C "$O/j"; done
python3 - "$O/j" <<'PY' | tee "$O/p19.txt"
import glob, json, os, statistics as st, sys
rows = {}
for f in glob.glob(os.path.join(sys.argv[1], 'b-p19r*.json')):
    tag, fam, m, n = os.path.basename(f)[2:-5].split('-')
    c = json.load(open(f))['cases'][0]
    rows.setdefault((fam, int(m)), []).append((tag, int(n), 'wsl1' if c['method'].endswith('wsl1') else 'copy-free', c['base_us'], c['cand_us']))
for key, v in sorted(rows.items()):
    for kind in ('copy-free', 'wsl1'):
        b = [x[3] for x in v if x[2] == kind]; c = [x[4] for x in v if x[2] == kind]
        print(f'{key[0]:9s} M {key[1]:3d} {kind:9s} processes {len(b)}  baseline us ' + ' '.join(f'{x:.2f}' for x in b) +
              f'  (mean {st.mean(b):.2f})  candidate mean {st.mean(c):.2f}')
PY
rm -rf "$O/j"
