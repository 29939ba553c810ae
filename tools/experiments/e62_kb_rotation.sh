#!/usr/bin/env bash
# E62 (session 17): wgmma_tma red5 with each CTA's k-blocks in rotated order (config keys kr1:
# N tile t starts t * count / tiles into its K range; kr2: odd N tiles start mid-range) against
# the plan's rk1 / wt1 configs, same binary. Then a re-screen of red5 rk1 for o at M 48..256
# (o runs the baseline there; E24's red5 lost by 1.9-3.7 us before E44-E47 and rk1).
# Steps: the red5 GPU suite (every kr variant at every resident M, three launches per M),
# `projkit check` of the kr variants over the plan ranges, then ab_configs.sh.
# Usage: tools/experiments/e62_kb_rotation.sh BIN OUT_DIR   (~5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== gpu tests ($(date +%T))"
timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5*' >"$O/gtest.txt" 2>&1
echo "rc=$?"; grep -E "^\[  (PASSED|FAILED) " "$O/gtest.txt"
P=wgmma_tma.bn128
Q64=$P.bm64.split4.mc1.stages8.xfit1.red5.rk1
Q128=$P.bm128.split4.mc1.stages6.xfit1.red5.rk1
Q256=$P.bm256.split7.mc1.stages4.xfit1.red5.rk1
W64=$P.bm64.split2.mc1.stages8.xfit1.red5.wt1
P192=$P.bm192.split4.mc1.stages5.xfit1.red5.rk1
P256=$P.bm256.split4.mc1.stages4.xfit1.red5.rk1
U128=$P.bm128.split2.mc1.stages6.xfit1.red5.rk1
U256=$P.bm256.split2.mc1.stages4.xfit1.red5.rk1
U64=$P.bm64.split2.mc1.stages8.xfit1.red5.rk1
echo "== check ($(date +%T))"
for c in "qkv 1..64 $Q64" "qkv 65..128 $Q128" "qkv 193..256 $Q256" "pooler 6..32 $W64" "pooler 77..192 $P192" \
         "pooler 193..256 $P256" "unpooler 17..64 $W64" "unpooler 65..128 $U128" "unpooler 224..256 $U256"; do
  read -r f r cfg <<<"$c"
  for v in kr1 kr2; do
    timeout 60 "$BIN/projkit" check --method "$cfg.$v" --families "$f" --m "$r" >"$O/check-$f-$r-$v.txt" 2>&1
    echo "check $f $r $v rc=$? | $(tail -1 "$O/check-$f-$r-$v.txt")"
  done
done
echo "== A/B ($(date +%T))"
CASES="qkv:8:$Q64,$Q64.kr1,$Q64.kr2 qkv:32:$Q64,$Q64.kr1,$Q64.kr2 qkv:128:$Q128,$Q128.kr1,$Q128.kr2
qkv:256:$Q256,$Q256.kr1,$Q256.kr2 pooler:8:$W64,$W64.kr1,$W64.kr2 pooler:32:$W64,$W64.kr1,$W64.kr2
pooler:128:$P192,$P192.kr1,$P192.kr2 pooler:256:$P256,$P256.kr1,$P256.kr2 unpooler:32:$W64,$W64.kr1,$W64.kr2
unpooler:128:$U128,$U128.kr1,$U128.kr2 unpooler:256:$U256,$U256.kr1,$U256.kr2" \
  PAIRS=200 TAG=e62 tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
echo "== o re-screen ($(date +%T))"
for c in "48 $U64" "64 $U64" "128 $U128" "256 $U256"; do
  read -r m cfg <<<"$c"
  timeout 60 "$BIN/projkit" bench --pairs 200 --families o --loads "$m" --method "$cfg" --json "$O/o-$m.json" >/dev/null 2>&1
  python3 -c "import json,sys;c=json.load(open(sys.argv[1]))['cases'][0];print('o M %s %s base %.2f cand %.2f ratio %.3f'%(sys.argv[2],c['method'][-40:],c['base_us'],c['cand_us'],c['ratio']))" "$O/o-$m.json" "$m"
done | tee "$O/o-rescreen.txt"
tar cJf "$O/checks.tar.xz" -C "$O" $(cd "$O" && ls check-*.txt o-*.json) && rm -f "$O"/check-*.txt "$O"/o-[0-9]*.json
echo "== summary ($(date +%T))"
cat "$O/summary-e62.txt"
