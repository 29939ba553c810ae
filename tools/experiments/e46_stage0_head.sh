#!/usr/bin/env bash
# Ledger E46 (session 12): wgmma_tma red5 with the producer sleeping `head` ns after issuing
# stage 0 (config key head300 / head800), against the same shape without it, on the plan's
# shapes; order base / head300 / head800 / head800 / head300 / base per case, paired ratios vs
# the in-process baseline. Also P4-style stamps of base and head800 at qkv / pooler M 256.
# Usage: tools/experiments/e46_stage0_head.sh BIN STAMPS_BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; ST=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
P=wgmma_tma.bn128
step "gpu tests Dense/WgmmaTmaRed5 + SplitkStream"
timeout 200 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5*:Dense/SplitkStream*' >"$O/gpu-tests.txt" 2>&1
echo "rc=$?"; tail -2 "$O/gpu-tests.txt"
step "check head800 shapes"
for c in "qkv 4..64 bm64.split4.mc1.stages8.xfit1.red5.head800" "qkv 193..256 bm256.split7.mc1.stages4.xfit1.red5.head800" \
         "pooler 65..192 bm192.split4.mc1.stages5.xfit1.red5.head800"; do
  set -- $c
  timeout 60 "$BIN/projkit" check --families $1 --m $2 --method $P.$3 >"$O/check-$1-$3.txt" 2>&1; echo "check $1 $2 $3 rc=$?"; tail -1 "$O/check-$1-$3.txt"
done
step "bench --method, 200 pairs, base / head300 / head800 / head800 / head300 / base"
while read -r fam m shape; do
  n=0
  for h in "" .head300 .head800 .head800 .head300 ""; do
    n=$((n + 1)); tag=${h:-.base}
    timeout 40 "$BIN/projkit" bench --pairs 200 --families "$fam" --loads "$m" --method "$P.$shape$h" \
      --json "$O/b-$fam-$m-$n${tag}.json" >"$O/b-$fam-$m-$n${tag}.txt" 2>&1 || echo "bench $fam $m $h rc=$?"
  done
done <<'LIST'
qkv 8 bm64.split4.mc1.stages8.xfit1.red5
qkv 32 bm64.split4.mc1.stages8.xfit1.red5
qkv 128 bm128.split4.mc1.stages6.xfit1.red5
qkv 192 bm192.split7.mc1.stages5.xfit1.red5
qkv 256 bm256.split7.mc1.stages4.xfit1.red5
pooler 32 bm64.split2.mc1.stages8.xfit1.red5
pooler 128 bm192.split4.mc1.stages5.xfit1.red5
pooler 256 bm256.split4.mc1.stages4.xfit1.red5
unpooler 32 bm64.split2.mc1.stages8.xfit1.red5
unpooler 128 bm128.split2.mc1.stages6.xfit1.red5
unpooler 256 bm256.split2.mc1.stages4.xfit1.red5
LIST
step "stamps: qkv / pooler M 256, base and head800"
mkdir -p "$O/st"
for h in "" .head800; do
  for c in "qkv 256 bm256.split7.mc1.stages4.xfit1.red5" "pooler 256 bm256.split4.mc1.stages4.xfit1.red5" "qkv 8 bm64.split4.mc1.stages8.xfit1.red5"; do
    set -- $c
    PROJKIT_WGMMA_STAMPS_CSV="$O/st/stamps${h:-.base}.csv" timeout 30 "$ST/projkit" bench --method "$P.$3$h" --families $1 --loads $2 \
      --pairs 50 >"$O/st/bench-$1-$2${h:-.base}.txt" 2>&1 || echo "stamps $1 $h rc=$?"
  done
done
python3 - "$O/st" >"$O/st/phases.txt" <<'PY'
import csv, glob, statistics as st, sys, os
for f in sorted(glob.glob(sys.argv[1] + '/stamps*.csv')):
    d = {}
    for r in csv.reader(open(f)):
        d.setdefault(r[0], []).append([int(x) for x in r[5:12]])
    for k, rows in sorted(d.items()):
        col = lambda i: [r[i] / 1e3 for r in rows]
        print(f"{os.path.basename(f)} {k[10:]}: first median {st.median(col(1)):.2f}; end median {st.median(col(2)):.2f} max {max(col(2)):.2f}; exit max {max(col(6)):.2f}")
PY
cat "$O/st/phases.txt"
step "summary"
python3 - "$O" <<'PY'
import json, glob, os, sys, statistics as st
O = sys.argv[1]
res = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    name = os.path.basename(f)[:-5]
    fam, m, rest = name.split('-')[1], int(name.split('-')[2]), name.split('-')[3]
    var = rest.split('.', 1)[1]
    try:
        c = json.load(open(f))['cases'][0]
    except Exception:
        continue
    res.setdefault((fam, m), {}).setdefault(var, []).append((c['ratio'], c['cand_us']))
for (fam, m), v in sorted(res.items()):
    b = st.mean(x[0] for x in v.get('base', [(float('nan'), 0)]))
    bu = st.mean(x[1] for x in v.get('base', [(0, float('nan'))]))
    line = f'{fam:9s} M {m:3d} base {bu:6.2f}us r{b:.3f}'
    for h in ('head300', 'head800'):
        if h in v:
            r = st.mean(x[0] for x in v[h]); u = st.mean(x[1] for x in v[h])
            line += f' | {h} {u:6.2f}us r{r:.3f} ({100 * (r / b - 1):+.1f}%)'
    print(line)
PY
