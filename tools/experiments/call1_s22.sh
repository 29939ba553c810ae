#!/usr/bin/env bash
# Session 22, call 1:
# 1. correctness of E77's new listings (qkv wgmma_tma bm64 / bm128 split7 on the slabs): the red5
#    GPU suite (every red5 config at M 1..256) and `projkit check` of every candidate over its range;
# 2. E76 (tools/experiments/e76_router_splits.sh: router kw8.wn1.zw1 against plan X's kw8.wn2.zw1 at
#    M 4 / 8 / 16 / 24 / 32) and E77 (qkv split7 against split4 on the slabs at M 2 / 8 / 16 / 32 / 64
#    and 65 / 96 / 128; pooler bm64.split4 against split2 at M 6 / 8 / 16 / 32 / 64), ab_configs.sh,
#    200 pairs, plan X's config first;
# 3. plan Y by plan_y_from_e77.py (its rule is in its docstring); if it moved the plan, the plan A/B
#    rounds (X against Y, 200 pairs, X Y Y X) that fit in 430 s. The ship verdict comes after the
#    third round (call 2): every changed scored case gains >= +0.5 % in mean paired ratio over the
#    three rounds and the mean score change is >= -0.3 % (plan_ab_verdict.py --rounds 3
#    --score-min -0.003 --case-min 0.005).
# Usage: tools/experiments/call1_s22.sh BIN OUT_DIR   (~6-8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/ab
W=wgmma_tma.bn128.
Q4=${W}bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1 Q7=${W}bm64.split7.mc1.stages8.xfit1.red5.rk1.ki1.wsl1
R4=${W}bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1 R7=${W}bm128.split7.mc1.stages6.xfit1.red5.rk1.ki1.wsl1
P2=${W}bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1
echo "== correctness ($(date +%T))"
timeout 150 "$BIN/projkit_gpu_tests" --gtest_filter='*WgmmaTmaRed5*:*RouterFamily*' >"$E/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest.txt" | tr '\n' ' ')"
for c in "qkv 1..64 $Q7" "qkv 65..128 $R7" "pooler 1..64 $Q4"; do
  set -- $c
  timeout 60 "$BIN/projkit" check --method "$3" --families "$1" --m "$2" >"$E/check-$3.txt" 2>&1
  echo "check $1 $2 $3 rc=$? | $(tail -1 "$E/check-$3.txt")"
done
echo "== E76 ($(date +%T))"
KEEP_JSON=1 tools/experiments/e76_router_splits.sh "$BIN" "$E" | tail -12
cp "$E/e76/check-router_hilo_stream.kw8.wn1.zw1.txt" "$E/" 2>/dev/null
mv "$E"/e76/b-e76-*.json "$E/" 2>/dev/null
echo "== E77 ($(date +%T))"
CASES="qkv:2:$Q4,$Q7 qkv:8:$Q4,$Q7 qkv:16:$Q4,$Q7 qkv:32:$Q4,$Q7 qkv:64:$Q4,$Q7 qkv:65:$R4,$R7 qkv:96:$R4,$R7 qkv:128:$R4,$R7 \
pooler:6:$P2,$Q4 pooler:8:$P2,$Q4 pooler:16:$P2,$Q4 pooler:32:$P2,$Q4 pooler:64:$P2,$Q4" TAG=e77 KEEP_JSON=1 \
  timeout 300 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-e77.txt"
echo "== plan rule ($(date +%T), $SECONDS s)"
(cd tools/experiments && python3 plan_y_from_e77.py "$E" ../../plans/h200.json "$O/plan-y.json") | tee "$O/plan-rule.txt"
rm -f "$E"/b-*.json "$E"/e76/b-*.json  # packed in bench-e76/e77.tar.xz by ab_configs.sh
if [ -f "$O/plan-y.json" ]; then
  for round in 1 2 3; do
    [ $SECONDS -gt 430 ] && break
    echo "== plan A/B round $round ($(date +%T))"
    tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" plans/h200.json "$O/plan-y.json" 2>&1 | grep -E "scores|score O|ratio O"
  done
  python3 tools/experiments/plan_ab_verdict.py --score-min -0.003 --case-min 0.005 "$O"/ab[123] >/dev/null
  tar cJf "$O/ab123.tar.xz" -C "$O" $(cd "$O" && ls -d ab[123]) && rm -rf "$O"/ab[123]
fi
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
echo "done ($SECONDS s)"
