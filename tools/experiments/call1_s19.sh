#!/usr/bin/env bash
# Session 19, call 1 (its device time is scarce: one call does what two would).
# 1. E66: the unpooler's row slice (M <= 8) on the k-block slabs with 8 / 16 K splits: `projkit
#    check` over M 1..8, then a same-binary A/B (200 pairs) against the plan's configs at M 1, 2,
#    4, 8. tools/experiments/plan_u_from_e66.py turns that into plan U (T2 with the slice's
#    sub-ranges moved where the fixed rule says so) or leaves the plan at T2.
# 2. Ship plan T2 or U: run_s.sh, two plan A/B rounds of plan T (O) against plans/h200.json (Q)
#    on this machine, then the full results (tests incl. the Python copy-free test, floor with
#    L7's interleaved variants, bench, sweep, check, fidelity, report).
# 3. Screens (100 pairs): o on the slab kernel at M 8 / 32 / 128 / 256; qkv bm64.split7 and
#    pooler bm64.split4 on the slabs at M 8 / 32.
# Usage: [SCREENS=0] tools/experiments/call1_s19.sh BIN OUT_DIR   (~9 min; ~7 without the screens)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/e66; mkdir -p "$E"
S16=wgmma_tma.bn128.bm64.split16.mc1.stages8.xfit1.red5.rk1
S8=wgmma_tma.bn128.bm64.split8.mc1.stages8.xfit1.red5.rk1
echo "== E66 checks ($(date +%T))"
for v in $S16.ki1.wsl1 $S8.ki1.wsl1 $S16; do
  timeout 60 "$BIN/projkit" check --method "$v" --families unpooler --m 1..8 >"$E/check-$v.txt" 2>&1
  echo "check unpooler 1..8 $v rc=$? | $(tail -1 "$E/check-$v.txt")"
done
G=gemv_stream.rows4.warps8; K=kperm_stream_mma.rt1.wr1.wk8.u8
echo "== E66 A/B ($(date +%T))"
CASES="unpooler:1:$G,$S16.ki1.wsl1,$S8.ki1.wsl1,$S16 unpooler:2:$G,$S16.ki1.wsl1,$S8.ki1.wsl1 \
unpooler:4:$K,$S16.ki1.wsl1,$S8.ki1.wsl1 unpooler:8:$K,$S16.ki1.wsl1,$S8.ki1.wsl1,$S16" TAG=e66 \
  tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-e66.txt"
python3 tools/experiments/plan_u_from_e66.py "$E" plans/h200.json "$O/plan-u.json" | tee "$E/plan-u.txt"
[ -f "$O/plan-u.json" ] && cp "$O/plan-u.json" plans/h200.json
tar cJf "$O/e66.tar.xz" -C "$O" e66 && rm -rf "$E"

tools/experiments/run_s.sh "$BIN" "$O" results/h200/session18/c4-run-t/plan-t.json >"$O/run.txt" 2>&1
tail -45 "$O/run.txt"
tar cJf "$O/ab.tar.xz" -C "$O" ab1 ab2 && rm -rf "$O/ab1" "$O/ab2"
tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"

[ "${SCREENS:-1}" = 1 ] || { ls "$O"; exit 0; }  # SCREENS=0: E66 and the results only
E=$O/screens; mkdir -p "$E"
# Screen: o on the slab kernel (red5 lost for o in session 7, before rk1, the zero-warp fixes
# and wsl1): plan configs at M 8 / 32, the baseline at 128 / 256.
P=wgmma_tma.bn128; W=mc1.stages8.xfit1.red5.rk1.ki1.wsl1
CASES="o:8:splitk_mma_l2.rows64.split1,$P.bm64.split2.$W o:32:splitk_mma_l2.rows64.split1.stages8,$P.bm64.split2.$W \
o:128:baseline,$P.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wsl1 \
o:256:baseline,$P.bm256.split2.mc1.stages4.xfit1.red5.rk1.ki1.wsl1" TAG=o-screen PAIRS=100 \
  timeout 100 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-o-screen.txt"
# Screen: more K splits on the slabs for qkv (bm64.split7, 126 CTAs) and pooler (bm64.split4,
# 128 CTAs) against the plan's bm64 configs.
CASES="qkv:8:$P.bm64.split4.$W,$P.bm64.split7.$W qkv:32:$P.bm64.split4.$W,$P.bm64.split7.$W \
pooler:8:$P.bm64.split2.$W,$P.bm64.split4.$W pooler:32:$P.bm64.split2.$W,$P.bm64.split4.$W" TAG=split-screen PAIRS=100 \
  timeout 100 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-split-screen.txt"
tar cJf "$O/screens.tar.xz" -C "$O" screens && rm -rf "$E"
ls "$O"
