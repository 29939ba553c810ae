#!/usr/bin/env bash
# Ledger E58f (session 15): wt1 (wgmma_tma bm64.split2.red5 in K-split-major order, run Q's form)
# against plan Q's method at unpooler M 9..16 (splitk_mma_cluster.warps4.split2), same binary,
# 200 pairs, plan / wt1 / wt1 / plan, at M 9, 12 and 16; check of wt1 over unpooler M 9..16.
# Usage: tools/experiments/e58f_unpooler_m9_16.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
P=splitk_mma_cluster.warps4.split2
W=wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.wt1
timeout 60 "$BIN/projkit" check --families unpooler --m 9..16 --method $W >"$O/check.txt" 2>&1; echo "check rc=$?"; tail -1 "$O/check.txt"
for m in 9 12 16; do
  n=0
  for v in $P $W $W $P; do
    n=$((n + 1)); tag=plan; [ "$v" = "$W" ] && tag=wt1
    timeout 60 "$BIN/projkit" bench --pairs 200 --families unpooler --loads $m --method $v \
      --json "$O/b-$m-$n.$tag.json" >/dev/null 2>&1 || echo "bench $m $v rc=$?"
  done
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import json, glob, os, sys, statistics as st
res = {}
for f in glob.glob(os.path.join(sys.argv[1], 'b-*.json')):
    m, rest = os.path.basename(f)[2:-5].split('-')
    c = json.load(open(f))['cases'][0]
    res.setdefault(int(m), {}).setdefault(rest.split('.')[1], []).append((c['ratio'], c['cand_us']))
for m, v in sorted(res.items()):
    if 'plan' not in v or 'wt1' not in v: continue
    b = st.mean(x[0] for x in v['plan']); r = st.mean(x[0] for x in v['wt1'])
    print(f"unpooler M {m:3d}: plan {st.mean(x[1] for x in v['plan']):.2f} us | wt1 {st.mean(x[1] for x in v['wt1']):.2f} us ({100 * (r / b - 1):+.1f}%)")
PY
(cd "$O" && XZ_OPT=-9 tar cJf bench-ab.tar.xz b-*.json && rm -f b-*.json)
