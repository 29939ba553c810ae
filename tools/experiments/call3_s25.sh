#!/usr/bin/env bash
# Session 25, call 3: E85, the start of the small-M slab kernels (P25b: their first stage lands
# ~0.4 us after the floor probe's first unit; thread 0's first TMA leaves 0.64 us after its entry).
# Configs (wgmma_tma.cu, E85): the lean start (.wsl1.ls1), W's pre-swizzled slabs by 16 KB bulk
# copies (.wsl2: the probe's W path, no tensor map), both (.wsl2.ls1); on qkv bm64.split4 and
# pooler / unpooler bm64.split2 (.rk1.ki1).
# 1. correctness: the Dense/WgmmaTmaRed5 GPU suite (every red5 config: fp64 reference at 15 M, three
#    launches each, the flags' reset) and `projkit check` of the six configs over qkv / pooler /
#    unpooler M 1..64;
# 2. the A/B (ab_configs.sh, 200 pairs, the plan's config first) over the plan's ranges;
# 3. P25b's light stamps (p13_skip_probe.sh mode 0, light build) of the four configs at qkv and
#    pooler M 16 (where each one's first stage lands);
# 4. plan Z5 by plan_z5_from_e85.py (rule in its docstring); if it wrote one, plan_ab_ship.sh (three
#    plan A/B rounds against plan Z4, session 22's verdict, and if it ships, its results).
# Usage: tools/experiments/call3_s25.sh BIN LIGHT_STAMPS_BIN OUT_DIR   (~9 min if it ships)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
Q=$W.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1
S=$W.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1
checks=()
for v in wsl1.ls1 wsl2 wsl2.ls1; do
  for f in qkv pooler unpooler; do
    b=$S; [ $f = qkv ] && b=$Q
    checks+=("$f:1..64:$b.$v")
  done
done
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/WgmmaTmaRed5*' "${checks[@]}"
echo "== E85 A/B ($(date +%T))"
CASES=""
for m in 2 8 16 32 64; do CASES="$CASES qkv:$m:$Q.wsl1,$Q.wsl1.ls1,$Q.wsl2,$Q.wsl2.ls1"; done
for m in 6 8 16 32 64; do CASES="$CASES pooler:$m:$S.wsl1,$S.wsl1.ls1,$S.wsl2,$S.wsl2.ls1"; done
for m in 9 16 32 64; do CASES="$CASES unpooler:$m:$S.wsl1,$S.wsl1.ls1,$S.wsl2,$S.wsl2.ls1"; done
CASES=$CASES PAIRS=200 TAG=e85 KEEP_JSON=1 timeout 300 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e85.txt"
(cd tools/experiments && python3 plan_z5_from_e85.py "$O/ab" ../../plans/h200.json "$O/plan-z5.json") | tee "$O/plan-rule.txt"
rm -f "$O"/ab/b-*.json
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
echo "== P25b stamps of the E85 configs ($(date +%T), $SECONDS s)"
SKIP_TESTS=1 MODES="0 0" CASES="qkv:16:$Q.wsl1 qkv:16:$Q.wsl1.ls1 qkv:16:$Q.wsl2 qkv:16:$Q.wsl2.ls1 \
pooler:16:$S.wsl1 pooler:16:$S.wsl1.ls1 pooler:16:$S.wsl2 pooler:16:$S.wsl2.ls1" \
  timeout 150 tools/experiments/p13_skip_probe.sh "$BIN" "$SBIN" "$O/p13" >"$O/p13.txt" 2>&1; echo "p13 rc=$?"
(cd "$O/p13" && mkdir -p st && tar xJf stamps.tar.xz -C st && python3 - <<'PY'
import csv, glob, os, statistics as st
res = {}
for f in glob.glob('st/stamps/s-*.csv'):
    fam = os.path.basename(f).split('-')[1]
    cur = None
    for r in csv.reader(open(f)):
        if int(r[1]) == 0:
            cur = []
            res.setdefault((fam, r[0]), []).append(cur)
        cur.append([int(x) for x in r[5:]])
print('P25b stamps (light build; per launch from the earliest thread-0 entry, medians over launches, us):')
for (fam, cfg), ll in sorted(res.items()):
    ll = [L for L in ll if len(L) >= 8]
    if not ll: continue
    def m(f): return st.median(f(L, min(c[7] for c in L)) for L in ll)
    print(f'  {fam:7s} {cfg[-22:]:22s} n {len(ll):2d}: first TMA {m(lambda L, e: st.median(c[10] - e for c in L)) / 1e3:.2f} '
          f'fill {m(lambda L, e: st.median(c[4] - e for c in L)) / 1e3:.2f} stage0 med {m(lambda L, e: st.median(c[1] - e for c in L)) / 1e3:.2f} '
          f'end max {m(lambda L, e: max(c[2] - e for c in L)) / 1e3:.2f} exit max {m(lambda L, e: max(c[6] - e for c in L)) / 1e3:.2f}')
PY
rm -rf st) | tee "$O/p25b-e85.txt"
if [ -f "$O/plan-z5.json" ]; then
  LEFT_S=$((585 - SECONDS)) tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$O/plan-z5.json" Z5
fi
echo "done ($SECONDS s)"
