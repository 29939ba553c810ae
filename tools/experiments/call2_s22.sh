#!/usr/bin/env bash
# Session 22, call 2:
# 1. correctness of the new listings: the GPU suite of the small-M split-K families and red5
#    (every splitk_mma_l2 and wgmma_tma red5 config), and `projkit check` of every candidate over
#    its range;
# 2. E78 (wgmma_tma bm64 on the slabs: fewer K splits, a ninth ring stage; qkv / pooler / unpooler)
#    and E79 (o from W's k-block slabs, splitk_mma_l2 wsl1): ab_configs.sh, 200 pairs, plan X's
#    config first;
# 3. plan Y by plan_y_from_e78.py (rule in its docstring); if it moved the plan, three plan A/B rounds
#    (X against Y, 200 pairs, X Y Y X) and the ship verdict: every changed scored case gains >= +0.5 %
#    in mean paired ratio over the rounds and the mean score change is >= -0.3 %
#    (plan_ab_verdict.py --rounds 3 --score-min -0.003 --case-min 0.005);
# 4. if Y ships: plans/h200.json = Y and its results (bench 400 pairs, check, A/A, fidelity, pytest,
#    floor, GPU tests + memcheck, then the 1..256 sweep) in what is left of 585 s.
# Usage: tools/experiments/call2_s22.sh BIN OUT_DIR   (~3-10 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/ab
W=wgmma_tma.bn128.bm64.
slab() { echo "${W}split$1.mc1.stages$2.xfit1.red5.rk1${3:-}.wsl1"; }
Q=$(slab 4 8 .ki1); P=$(slab 2 8 .ki1)
QC="$(slab 3 8 .ki1),$(slab 3 9 .ki1),$(slab 4 9 .ki1),$(slab 2 8 .ki1),$(slab 2 9 .ki1)"
PC="$(slab 2 9 .ki1),$(slab 1 8),$(slab 1 9)"
L=splitk_mma_l2.rows64.split1
echo "== correctness ($(date +%T))"
timeout 200 "$BIN/projkit_gpu_tests" --gtest_filter='*SplitkStream*:*WgmmaTmaRed5*' >"$E/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest.txt" | tr '\n' ' ')"
IFS=, read -r -a qc <<<"$QC"; IFS=, read -r -a pc <<<"$PC"
for c in "${qc[@]/#/qkv:1..64:}" "${pc[@]/#/pooler:1..64:}" "${pc[@]/#/unpooler:9..64:}" \
         "o:1..32:$L.wsl1" "o:1..32:$L.stages8.wsl1"; do
  IFS=: read -r f r cfg <<<"$c"
  timeout 60 "$BIN/projkit" check --method "$cfg" --families "$f" --m "$r" >"$E/check-$f-$cfg.txt" 2>&1
  echo "check $f $r $cfg rc=$? | $(tail -1 "$E/check-$f-$cfg.txt")"
done
# plan_y_from_e78.py reads check-<config>.txt: a config passes only if each family it was checked on passed
for cfg in "${qc[@]}" "${pc[@]}" "$L.wsl1" "$L.stages8.wsl1"; do
  ok=1
  for f in "$E"/check-*-"$cfg".txt; do [ "$(tail -n1 "$f")" = "check: PASS" ] || ok=0; done
  if [ $ok = 1 ]; then echo "check: PASS" >"$E/check-$cfg.txt"; else echo "check: FAIL (per family: check-FAMILY-$cfg.txt)" >"$E/check-$cfg.txt"; fi
done
echo "== E78 / E79 A/B ($(date +%T))"
CASES="qkv:2:$Q,$QC qkv:8:$Q,$QC qkv:16:$Q,$QC qkv:32:$Q,$QC qkv:64:$Q,$QC \
pooler:6:$P,$PC pooler:8:$P,$PC pooler:16:$P,$PC pooler:32:$P,$PC pooler:64:$P,$PC \
unpooler:9:$P,$PC unpooler:16:$P,$PC unpooler:32:$P,$PC unpooler:64:$P,$PC" TAG=e78 KEEP_JSON=1 \
  timeout 200 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
CASES="o:1:$L,$L.wsl1,$L.stages8.wsl1 o:4:$L,$L.wsl1,$L.stages8.wsl1 o:8:$L,$L.wsl1,$L.stages8.wsl1 \
o:12:$L,$L.wsl1,$L.stages8.wsl1 o:16:$L,$L.wsl1,$L.stages8.wsl1 \
o:17:$L.stages8,$L.stages8.wsl1 o:24:$L.stages8,$L.stages8.wsl1 o:32:$L.stages8,$L.stages8.wsl1" TAG=e79 KEEP_JSON=1 \
  timeout 100 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-e78.txt" "$E/summary-e79.txt"
echo "== plan rule ($(date +%T), $SECONDS s)"
(cd tools/experiments && python3 plan_y_from_e78.py "$E" ../../plans/h200.json "$O/plan-y.json") | tee "$O/plan-rule.txt"
rm -f "$E"/b-*.json  # packed in bench-e78/e79.tar.xz by ab_configs.sh
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
# steps 3-4 (the call ran them inline; the same commands, moved into plan_ab_ship.sh in the review)
if [ -f "$O/plan-y.json" ]; then
  LEFT_S=$((585 - SECONDS)) tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$O/plan-y.json" Y
else
  echo "ship plan Y: 0 ($SECONDS s)"
fi
echo "done ($SECONDS s)"
