#!/usr/bin/env bash
# Ledger P16 (session 16): is E59's gain (red5's own entry point, rk1) in the launch or in the
# work? A PROJKIT_WGMMA_STAMPS build with $PROJKIT_WGMMA_PROBE_SKIP=16 makes every CTA return at
# entry, so bench times the launch alone (cooperative, ~200 KB smem, 384 threads) beyond the
# empty-kernel replay overhead; mode 0 times the whole call in the same build. Per case the
# wgmma_tma_kernel config and its rk1 twin (and pooler M 32's wt1), 100 pairs, A B .. B A.
# Usage: tools/experiments/p16_launch_alone.sh STAMPS_BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
Q64=$W.bm64.split4.mc1.stages8.xfit1.red5; P192=$W.bm192.split4.mc1.stages5.xfit1.red5; P64=$W.bm64.split2.mc1.stages8.xfit1.red5
CASES="qkv:64:$Q64,$Q64.rk1 pooler:128:$P192,$P192.rk1 pooler:32:$P64,$P64.rk1,$P64.wt1"
for mode in 16 0; do
  for c in $CASES; do
    IFS=: read -r f m list <<<"$c"
    IFS=, read -r -a cfgs <<<"$list"
    order=("${cfgs[@]}")
    for ((i = ${#cfgs[@]} - 1; i >= 0; --i)); do order+=("${cfgs[i]}"); done
    n=0
    for v in "${order[@]}"; do
      n=$((n + 1))
      PROJKIT_WGMMA_PROBE_SKIP=$mode timeout 60 "$BIN/projkit" bench --pairs 100 --families "$f" --loads "$m" \
        --method "$v" --json "$O/b-$mode-$f-$m-$n.json" >/dev/null 2>&1 || echo "bench $mode $f $m $v rc=$?"
    done
  done
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, json, os, statistics as st, sys
O = sys.argv[1]
res = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    mode, fam, m, n = os.path.basename(f)[:-5].split('-')[1:5]
    c = json.load(open(f))['cases'][0]
    res.setdefault((fam, int(m)), {}).setdefault(c['method'].rsplit('.', 1)[-1], {}).setdefault(int(mode), []).append(c['cand_us'])
print('P16: us (mean of two runs): launch alone (mode 16) | whole call in the stamps build (mode 0)')
for key, v in sorted(res.items()):
    for k, mv in sorted(v.items()):
        print(f"{key[0]:8s} M {key[1]:3d} {k:5s}: launch {st.mean(mv.get(16, [0])):5.2f} | call {st.mean(mv.get(0, [0])):6.2f}")
PY
tar cJf "$O/bench.tar.xz" -C "$O" $(cd "$O" && ls b-*.json) && rm -f "$O"/b-*.json
