#!/usr/bin/env bash
# Ledger E47 (session 12): wgmma_tma red5 with the first ring fill issued by thread 0 right after
# the mbarrier init, before __syncthreads and the producer's setmaxnreg (config key early1),
# against the same shape without it, on the plan's shapes; order base / early / early / base per
# case, paired ratios vs the in-process baseline; P5 stamps of both.
# Usage: tools/experiments/e47_early_fill.sh BIN STAMPS_BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; ST=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
P=wgmma_tma.bn128
step "gpu tests Dense/WgmmaTmaRed5 + SplitkStream"
timeout 200 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5*:Dense/SplitkStream*' >"$O/gpu-tests.txt" 2>&1
echo "rc=$?"; tail -2 "$O/gpu-tests.txt"
step "check early1 shapes over their plan ranges"
while read -r fam r shape; do
  timeout 60 "$BIN/projkit" check --families $fam --m $r --method $P.$shape.early1 >"$O/check-$fam-$r.txt" 2>&1; echo "check $fam $r rc=$?"; tail -1 "$O/check-$fam-$r.txt"
done <<'LIST'
qkv 4..64 bm64.split4.mc1.stages8.xfit1.red5
qkv 65..128 bm128.split4.mc1.stages6.xfit1.red5
qkv 193..256 bm256.split7.mc1.stages4.xfit1.red5
pooler 9..64 bm64.split2.mc1.stages8.xfit1.red5
pooler 65..192 bm192.split4.mc1.stages5.xfit1.red5
unpooler 17..64 bm64.split2.mc1.stages8.xfit1.red5
unpooler 65..128 bm128.split2.mc1.stages6.xfit1.red5
LIST
step "bench --method, 200 pairs, base / early / early / base"
while read -r fam m shape; do
  n=0
  for h in "" .early1 .early1 ""; do
    n=$((n + 1)); tag=${h:-.base}
    timeout 40 "$BIN/projkit" bench --pairs 200 --families "$fam" --loads "$m" --method "$P.$shape$h" \
      --json "$O/b-$fam-$m-$n${tag}.json" >"$O/b-$fam-$m-$n${tag}.txt" 2>&1 || echo "bench $fam $m $h rc=$?"
  done
done <<'LIST'
qkv 8 bm64.split4.mc1.stages8.xfit1.red5
qkv 16 bm64.split4.mc1.stages8.xfit1.red5
qkv 32 bm64.split4.mc1.stages8.xfit1.red5
qkv 128 bm128.split4.mc1.stages6.xfit1.red5
qkv 192 bm192.split7.mc1.stages5.xfit1.red5
qkv 256 bm256.split7.mc1.stages4.xfit1.red5
pooler 16 bm64.split2.mc1.stages8.xfit1.red5
pooler 32 bm64.split2.mc1.stages8.xfit1.red5
pooler 128 bm192.split4.mc1.stages5.xfit1.red5
pooler 256 bm256.split4.mc1.stages4.xfit1.red5
unpooler 32 bm64.split2.mc1.stages8.xfit1.red5
unpooler 128 bm128.split2.mc1.stages6.xfit1.red5
unpooler 192 bm192.split2.mc1.stages5.xfit1.red5
unpooler 256 bm256.split2.mc1.stages4.xfit1.red5
LIST
step "stamps (P5 slots): base and early1"
mkdir -p "$O/st"
for h in "" .early1; do
  while read -r fam m shape; do
    PROJKIT_WGMMA_STAMPS_CSV="$O/st/stamps${h:-.base}.csv" timeout 30 "$ST/projkit" bench --method "$P.$shape$h" --families $fam --loads $m \
      --pairs 50 >"$O/st/bench-$fam-$m${h:-.base}.txt" 2>&1 || echo "stamps $fam $m $h rc=$?"
  done <<'LIST'
qkv 8 bm64.split4.mc1.stages8.xfit1.red5
pooler 32 bm64.split2.mc1.stages8.xfit1.red5
qkv 256 bm256.split7.mc1.stages4.xfit1.red5
LIST
done
python3 - "$O/st" >"$O/st/phases.txt" <<'PY'
import csv, glob, statistics as st, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/stamps*.csv')):
    d = {}
    for r in csv.reader(open(f)):
        d.setdefault(r[0], []).append([int(x) for x in r[5:12]])
    for k, rows in sorted(d.items()):
        med = lambda i: st.median(r[i] / 1e3 for r in rows)
        print(f"{os.path.basename(f):20s} {k[14:]}: start {med(0):.2f} issue {med(4):.2f} W0 {med(1):.2f} end {med(2):.2f} max end {max(r[2] for r in rows)/1e3:.2f} exit max {max(r[6] for r in rows)/1e3:.2f}")
PY
cat "$O/st/phases.txt"
step "summary"
python3 - "$O" <<'PY'
import json, glob, os, sys, statistics as st
O = sys.argv[1]
res = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    name = os.path.basename(f)[:-5]
    parts = name.split('-')
    fam, m, var = parts[1], int(parts[2]), parts[3].split('.', 1)[1]
    try:
        c = json.load(open(f))['cases'][0]
    except Exception:
        continue
    res.setdefault((fam, m), {}).setdefault(var, []).append((c['ratio'], c['cand_us']))
tot = 0.0
for (fam, m), v in sorted(res.items()):
    if 'base' not in v or 'early1' not in v: continue
    b = st.mean(x[0] for x in v['base']); bu = st.mean(x[1] for x in v['base'])
    e = st.mean(x[0] for x in v['early1']); eu = st.mean(x[1] for x in v['early1'])
    d = bu * (b / e) - bu; tot += d
    print(f'{fam:9s} M {m:3d} base {bu:6.2f}us r{b:.3f} | early1 {eu:6.2f}us r{e:.3f} ({100 * (e / b - 1):+.1f}%, ~{d:+.2f} us)')
print(f'sum of the ratio-equivalent us changes: {tot:+.2f}')
PY
