#!/usr/bin/env bash
# E70 (session 20): one more smem ring stage on the plan's red5 configs of the 64- and 128-token
# tiles (bm64 ki1.wsl1: 8 -> 9 stages; bm128 ki1 / ki1.wsl1: 6 -> 7), a run-time value.
# 1. GPU suite Dense/WgmmaTmaRed5 (every red5 config at M 1..256 where resident, three launches).
# 2. `projkit check --method CFG` for each twin over the M range the plan runs its base.
# 3. Same-binary A/B, 200 pairs (base, twin, twin, base) at qkv / pooler M 8, 32, 96, 128 and
#    unpooler M 16, 32, 96, 128. Everything is packed into OUT_DIR/e70.tar.xz; the JSONs stay
#    unpacked in OUT_DIR/e70 for plan_w_from_e70.py.
# Usage: tools/experiments/e70_deeper_ring.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; E=$O/e70; mkdir -p "$E"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
P=wgmma_tma.bn128
K64=$P.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1;  K64d=${K64/stages8/stages9}
Q64=$P.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1;  Q64d=${Q64/stages8/stages9}
K128=$P.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1; K128d=${K128/stages6/stages7}
Q128=$P.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1;      Q128d=${Q128/stages6/stages7}
U128=$P.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1;      U128d=${U128/stages6/stages7}
echo "== GPU suite Dense/WgmmaTmaRed5 ($(date +%T))"
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5.*' >"$E/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest.txt" | tr '\n' ' ')"
echo "== checks ($(date +%T))"
for spec in "qkv:2..64:$K64d" "pooler:6..64:$Q64d" "unpooler:9..64:$Q64d" "qkv:65..128:$K128d" \
            "pooler:65..128:$Q128d" "unpooler:65..128:$U128d"; do
  IFS=: read -r f ms v <<<"$spec"
  timeout 120 "$BIN/projkit" check --method "$v" --families "$f" --m "$ms" >"$E/check-$f-$v.txt" 2>&1
  echo "check $f $ms $v rc=$? | $(tail -1 "$E/check-$f-$v.txt")"
done
echo "== A/B ($(date +%T))"
CASES="qkv:8:$K64,$K64d qkv:32:$K64,$K64d pooler:8:$Q64,$Q64d pooler:32:$Q64,$Q64d \
unpooler:16:$Q64,$Q64d unpooler:32:$Q64,$Q64d qkv:96:$K128,$K128d qkv:128:$K128,$K128d \
pooler:96:$Q128,$Q128d pooler:128:$Q128,$Q128d unpooler:96:$U128,$U128d unpooler:128:$U128,$U128d" TAG=e70 \
  timeout 300 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
tar xJf "$E/bench-e70.tar.xz" -C "$E"
tar cJf "$O/e70.tar.xz" -C "$O" --exclude='b-e70-*.json' e70
echo "== summary ($(date +%T))"
cat "$E/summary-e70.txt"
