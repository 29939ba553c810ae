#!/usr/bin/env bash
# Ledger E61 (session 16): with red5 on its own entry point (rk1, E59), do other listed configs
# now beat plan R's at the scored loads? Same binary, listed configs only, 200 pairs per run,
# order A B .. B A (the first config of each case is plan R's). No check: every config named is
# covered by the Dense GPU suites and by run R's / E59's checks.
# Usage: tools/experiments/e61_rescreen_rk1.sh BIN OUT_DIR   (~1.5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
Q64=$W.bm64.split4.mc1.stages8.xfit1.red5.rk1; Q64s7=$W.bm64.split7.mc1.stages8.xfit1.red5.rk1
Q128=$W.bm128.split4.mc1.stages6.xfit1.red5.rk1; Q128s7=$W.bm128.split7.mc1.stages6.xfit1.red5.rk1
P192=$W.bm192.split4.mc1.stages5.xfit1.red5.rk1; P128=$W.bm128.split4.mc1.stages6.xfit1.red5.rk1
U64wt=$W.bm64.split2.mc1.stages8.xfit1.red5.wt1; U64rk=$W.bm64.split2.mc1.stages8.xfit1.red5.rk1
CASES=${CASES:-"qkv:8:$Q64,$Q64s7 qkv:32:$Q64,$Q64s7 qkv:128:$Q128,$Q128s7 pooler:128:$P192,$P128 unpooler:16:splitk_mma_cluster.warps4.split2,$U64wt,$U64rk"}
for c in $CASES; do
  IFS=: read -r f m list <<<"$c"
  IFS=, read -r -a cfgs <<<"$list"
  order=("${cfgs[@]}")
  for ((i = ${#cfgs[@]} - 1; i >= 0; --i)); do order+=("${cfgs[i]}"); done
  n=0
  for v in "${order[@]}"; do
    n=$((n + 1))
    timeout 60 "$BIN/projkit" bench --pairs 200 --families "$f" --loads "$m" --method "$v" \
      --json "$O/b-$f-$m-$n.json" >/dev/null 2>&1 || echo "bench $f $m $v rc=$?"
  done
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, json, os, statistics as st, sys
O = sys.argv[1]
res = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    fam, m, n = os.path.basename(f)[:-5].split('-')[1:4]
    c = json.load(open(f))['cases'][0]
    res.setdefault((fam, int(m)), {}).setdefault(c['method'], []).append((int(n), c['ratio'], c['cand_us']))
print('E61 (mean of two runs each; % = paired ratio against the first config, plan R\'s)')
for key, v in sorted(res.items()):
    first = min(v, key=lambda k: min(x[0] for x in v[k]))
    b = st.mean(x[1] for x in v[first])
    for k in sorted(v, key=lambda k: min(x[0] for x in v[k])):
        r = st.mean(x[1] for x in v[k])
        print(f'{key[0]:8s} M {key[1]:3d} {k[-45:]:45s} {st.mean(x[2] for x in v[k]):6.2f} us ({100 * (r / b - 1):+.1f}%)')
PY
tar cJf "$O/bench.tar.xz" -C "$O" $(cd "$O" && ls b-*.json) && rm -f "$O"/b-*.json
