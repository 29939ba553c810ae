#!/usr/bin/env bash
# Session 26, call 1: E86, x multicast over clusters of two N-neighbours (red5 mc2 on rk1.ki1, with
# and without ko1) at M 65..256 (P22: the M 256 main loop is L2 -> SM-bound; P23: x's loads cost
# 1.35-2.1 us there).
# 1. correctness: the Dense/WgmmaTmaRed5 GPU suite (every red5 config, the 18 mc2 ones included:
#    fp64 reference at 15 M, three launches each, the flags' reset) and `projkit check` of each mc2
#    config over its family's range (bm128: 65..128, bm192: 129..192, bm256: 193..256);
# 2. the A/B (ab_configs.sh, 200 pairs, the plan's config first, the mc1 twin where the plan runs
#    another config, then the two mc2 configs) at qkv / pooler / unpooler M 96..256;
# 3. light stamps (p13_skip_probe.sh mode 0, PROJKIT_STAMPS_LIGHT build) of the plan's config and
#    an mc2 config at M 256 (first stage, last main-loop end, last exit);
# 4. plan Z5 by plan_z5_from_e86.py (rule in its docstring); if it wrote one, plan_ab_ship.sh (three
#    plan A/B rounds against plan Z4, session 22's verdict, and if it ships, its results).
# Usage: tools/experiments/call1_s26.sh BIN LIGHT_STAMPS_BIN OUT_DIR   (~10 min if it ships)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
c() { echo "$W.bm$1.split$2.mc$3.stages$4.xfit1.red5.rk1$5"; }
checks=()
for f in qkv pooler unpooler; do
  s=2; [ $f = qkv ] && s=7; [ $f = pooler ] && s=4
  for t in "128 6 65..128" "192 5 129..192" "256 4 193..256"; do
    read -r bm st r <<<"$t"
    for k in .ki1 .ki1.ko1; do checks+=("$f:$r:$(c "$bm" $s 2 "$st" $k)"); done
  done
done
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/WgmmaTmaRed5*' "${checks[@]}"
echo "== E86 A/B ($(date +%T))"
pairs() { echo "$(c "$1" "$2" 2 "$3" .ki1),$(c "$1" "$2" 2 "$3" .ki1.ko1)"; }
CASES=""
for m in 96 128; do CASES="$CASES qkv:$m:$(c 128 4 1 6 .ki1.wsl1),$(c 128 7 1 6 .ki1.ko1),$(pairs 128 7 6)"; done
for m in 160 192; do CASES="$CASES qkv:$m:$(c 192 7 1 5 .ki1.ko1),$(pairs 192 7 5)"; done
CASES="$CASES qkv:256:$(c 256 7 1 4 .ki1.ko1),$(pairs 256 7 4)"
for m in 96 128; do CASES="$CASES pooler:$m:$(c 128 4 1 6 .ki1),$(pairs 128 4 6)"; done
for m in 160 192; do CASES="$CASES pooler:$m:$(c 192 4 1 5 .ki1),$(pairs 192 4 5)"; done
CASES="$CASES pooler:256:$(c 256 4 1 4 .ki1),$(pairs 256 4 4)"
for m in 96 128; do CASES="$CASES unpooler:$m:$(c 128 2 1 6 .ki1),$(pairs 128 2 6)"; done
for m in 160 192; do CASES="$CASES unpooler:$m:$(c 192 2 1 5 ''),$(c 192 2 1 5 .ki1),$(pairs 192 2 5)"; done
CASES="$CASES unpooler:256:$(c 256 2 1 4 .ki1),$(pairs 256 2 4)"
CASES=$CASES PAIRS=200 TAG=e86 KEEP_JSON=1 timeout 300 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e86.txt"
(cd tools/experiments && python3 plan_z5_from_e86.py "$O/ab" ../../plans/h200.json "$O/plan-z5.json") | tee "$O/plan-rule.txt"
rm -f "$O"/ab/b-*.json
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
echo "== light stamps, mc1 against mc2 at M 256 ($(date +%T), $SECONDS s)"
SKIP_TESTS=1 MODES="0 0" CASES="pooler:256:$(c 256 4 1 4 .ki1) pooler:256:$(c 256 4 2 4 .ki1) \
qkv:256:$(c 256 7 1 4 .ki1.ko1) qkv:256:$(c 256 7 2 4 .ki1.ko1) unpooler:256:$(c 256 2 1 4 .ki1) \
unpooler:256:$(c 256 2 2 4 .ki1)" timeout 120 tools/experiments/p13_skip_probe.sh "$BIN" "$SBIN" "$O/p13" >"$O/p13.txt" 2>&1
echo "p13 rc=$?"
# (call 1 ran stamps_phases.py's lines inline; on call 1's stamps it prints the same lines: checked)
mkdir -p "$O/p13/st" && tar xJf "$O/p13/stamps.tar.xz" -C "$O/p13/st" &&
  python3 tools/experiments/stamps_phases.py "$O/p13/st/stamps" | sed 's/^light stamps/E86 light stamps/' | tee "$O/stamps-e86.txt"
rm -rf "$O/p13/st"
if [ -f "$O/plan-z5.json" ]; then
  LEFT_S=$((585 - SECONDS)) tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$O/plan-z5.json" Z5
fi
echo "done ($SECONDS s)"
