#!/usr/bin/env bash
# Ledger E50 (session 13): wgmma_tma red5 with a tail pool (config key tp2 / tp4): the last tp
# k-blocks of every K split of a tile are claimed at run time, two per atomic, by whichever
# split's producer finishes its own range first; against the same shape without it, on the plan's
# shapes; order base / variant / variant / base per case, paired ratios vs the in-process baseline.
# Usage: tools/experiments/e50_tail_pool.sh BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo "== $* ($(date +%T))"; }
P=wgmma_tma.bn128
step "gpu tests Dense/WgmmaTmaRed5 + SplitkStream (tp twins included)"
timeout 200 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5*:Dense/SplitkStream*' >"$O/gpu-tests.txt" 2>&1
echo "rc=$?"; grep -E "^\[  (PASSED|FAILED)|FAILED" "$O/gpu-tests.txt" | head -8
step "check tp2 / tp4 shapes over their plan ranges"
while read -r fam r shape vs; do
  for v in $vs; do
    timeout 60 "$BIN/projkit" check --families $fam --m $r --method $P.$shape.$v >"$O/check-$fam-$r-$v.txt" 2>&1
    echo "check $fam $r $shape.$v rc=$?"; tail -1 "$O/check-$fam-$r-$v.txt"
  done
done <<'LIST'
qkv 2..64 bm64.split4.mc1.stages8.xfit1.red5 tp2 tp4
qkv 65..128 bm128.split4.mc1.stages6.xfit1.red5 tp2 tp4
qkv 193..256 bm256.split7.mc1.stages4.xfit1.red5 tp2
pooler 6..64 bm64.split2.mc1.stages8.xfit1.red5 tp2 tp4
pooler 65..192 bm192.split4.mc1.stages5.xfit1.red5 tp2 tp4
pooler 193..256 bm256.split4.mc1.stages4.xfit1.red5 tp2
unpooler 9..64 bm64.split2.mc1.stages8.xfit1.red5 tp2 tp4
unpooler 65..128 bm128.split2.mc1.stages6.xfit1.red5 tp2 tp4
unpooler 224..256 bm256.split2.mc1.stages4.xfit1.red5 tp2
LIST
step "bench --method, 200 pairs, base / variant / variant / base"
blk=0
while read -r fam m base vs; do
  for var in $vs; do
  n=0; blk=$((blk + 1)); echo "$blk $fam $m $base $base.$var" >>"$O/blocks.txt"
  for v in "$base" "$base.$var" "$base.$var" "$base"; do
    n=$((n + 1)); tag=$([ "$v" = "$base" ] && echo base || echo var)
    timeout 40 "$BIN/projkit" bench --pairs 200 --families "$fam" --loads "$m" --method "$P.$v" \
      --json "$O/b-$blk-$fam-$m-$n.$tag.json" >"$O/b-$blk-$fam-$m-$n.$tag.txt" 2>&1 || echo "bench $fam $m $v rc=$?"
  done
  done
done <<'LIST'
qkv 8 bm64.split4.mc1.stages8.xfit1.red5 tp2 tp4
qkv 16 bm64.split4.mc1.stages8.xfit1.red5 tp2 tp4
qkv 32 bm64.split4.mc1.stages8.xfit1.red5 tp2 tp4
qkv 128 bm128.split4.mc1.stages6.xfit1.red5 tp2 tp4
qkv 256 bm256.split7.mc1.stages4.xfit1.red5 tp2
pooler 8 bm64.split2.mc1.stages8.xfit1.red5 tp2 tp4
pooler 16 bm64.split2.mc1.stages8.xfit1.red5 tp2 tp4
pooler 32 bm64.split2.mc1.stages8.xfit1.red5 tp2 tp4
pooler 128 bm192.split4.mc1.stages5.xfit1.red5 tp2 tp4
pooler 256 bm256.split4.mc1.stages4.xfit1.red5 tp2
unpooler 16 bm64.split2.mc1.stages8.xfit1.red5 tp2 tp4
unpooler 32 bm64.split2.mc1.stages8.xfit1.red5 tp2 tp4
unpooler 128 bm128.split2.mc1.stages6.xfit1.red5 tp2 tp4
unpooler 256 bm256.split2.mc1.stages4.xfit1.red5 tp2
LIST
step "summary"
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import json, glob, os, sys, statistics as st
O = sys.argv[1]
res = {}
names = {}
for line in open(os.path.join(O, 'blocks.txt')):
    p = line.split()
    names[int(p[0])] = p[4].replace('.mc1', '').replace('.xfit1', '').replace('.red5', '')
for f in glob.glob(os.path.join(O, 'b-*.json')):
    parts = os.path.basename(f)[:-5].split('-')
    blk, fam, m, var = int(parts[1]), parts[2], int(parts[3]), parts[4].split('.')[1]
    try:
        c = json.load(open(f))['cases'][0]
    except Exception:
        continue
    res.setdefault((blk, fam, m), []).append((var, c['ratio'], c['cand_us']))
tot = 0.0
for (blk, fam, m), runs in sorted(res.items()):
    b = [r for r in runs if r[0] == 'base']; w = [r for r in runs if r[0] == 'var']
    if not b or not w: continue
    br = st.mean(r[1] for r in b); bu = st.mean(r[2] for r in b)
    wr = st.mean(r[1] for r in w); wu = st.mean(r[2] for r in w)
    d = bu * (br / wr) - bu; tot += d
    v = names.get(blk, '?')
    print(f'{blk:2d} {fam:9s} M {m:3d} base {bu:6.2f}us r{br:.3f} | {v:28s} {wu:6.2f}us r{wr:.3f} ({100 * (wr / br - 1):+.1f}%, ~{d:+.2f} us)')
print(f'sum over blocks of the ratio-equivalent us changes: {tot:+.2f}')
PY
