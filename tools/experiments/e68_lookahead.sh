#!/usr/bin/env bash
# E68 (session 20): wgmma_tma red5 with at most 2 / 3 of a CTA's k-blocks requested and not yet
# landed (la2 / la3) on the plan's configs at M 8 / 32 / 128 / 256; and E67's one positive reading
# again (qkv M 1 gemv_stream rows2.warps8.eq1, 400 pairs).
# 1. GPU suite Dense/WgmmaTmaRed5 (every red5 config, la ones included, at M 1..256 where resident,
#    three launches per M on one prepared method: flags must reset).
# 2. `projkit check --method CFG` for each la config at the M range the plan runs its base.
# 3. Same-binary A/B, 200 pairs (ab_configs.sh: base, la2, la3, la3, la2, base).
# Prints a short table last; the full logs stay under OUT_DIR.
# Usage: tools/experiments/e68_lookahead.sh BIN OUT_DIR   (~6 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
P=wgmma_tma.bn128
Q256=$P.bm256.split4.mc1.stages4.xfit1.red5.rk1.ki1      # pooler M 193..256
U256=$P.bm256.split2.mc1.stages4.xfit1.red5.rk1.ki1      # unpooler M 224..256
K256=$P.bm256.split7.mc1.stages4.xfit1.red5.rk1.ki1.ko1  # qkv M 193..256
Q128=$P.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1      # pooler M 65..128
U128=$P.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1      # unpooler M 65..117, 128
K128=$P.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1 # qkv M 65..128
Q64=$P.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1   # pooler M 6..64, unpooler M 9..64
K64=$P.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1   # qkv M 2..64
echo "== GPU suite Dense/WgmmaTmaRed5 ($(date +%T))"
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | tr '\n' ' ')"
echo "== checks ($(date +%T))"
for spec in "pooler:193..256:$Q256" "unpooler:224..256:$U256" "qkv:193..256:$K256" "pooler:65..128:$Q128" \
            "qkv:65..128:$K128" "pooler:6..64:$Q64"; do
  IFS=: read -r f ms base <<<"$spec"
  for la in la2 la3; do
    timeout 120 "$BIN/projkit" check --method "$base.$la" --families "$f" --m "$ms" >"$O/check-$f-$la-$ms.txt" 2>&1
    echo "check $f $ms $base.$la rc=$? | $(tail -1 "$O/check-$f-$la-$ms.txt")"
  done
done
echo "== A/B ($(date +%T))"
CASES="pooler:256:$Q256,$Q256.la2,$Q256.la3 unpooler:256:$U256,$U256.la2,$U256.la3 qkv:256:$K256,$K256.la2,$K256.la3 \
pooler:128:$Q128,$Q128.la2,$Q128.la3 unpooler:128:$U128,$U128.la2,$U128.la3 qkv:128:$K128,$K128.la2,$K128.la3 \
pooler:32:$Q64,$Q64.la2,$Q64.la3 qkv:8:$K64,$K64.la2,$K64.la3" TAG=e68 \
  timeout 420 tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
G=gemv_stream.rows2.warps8
CASES="qkv:1:$G,$G.eq1" TAG=e67b PAIRS=400 timeout 60 tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
echo "== summary ($(date +%T))"
cat "$O/summary-e68.txt" "$O/summary-e67b.txt"
