#!/usr/bin/env bash
# Session 26, calls 2 and 3 (call 3 reran it on the fixed build, ledger E87): E87, W multicast
# over the two token tiles (wmc1: red5.rk1.ki1 with clusters (1, 2, 1); bm64 at M 65..128, bm128 at M 129..256; split 1 stores plainly). E86 (call 1): x
# multicast moved no main loop (light stamps: pooler M 256 main-loop end 23.67 against 23.70 us), so
# the M 256 main loop is tensor-bound; what is left is the start and the tail (the adds, ~2 us).
# wmc1 keeps the grid and halves the K split (pooler 4 -> 2, unpooler and o 2 -> 1, qkv 7 -> 3).
# 1. correctness: the Dense/WgmmaTmaRed5 GPU suite (every red5 config, the six wmc1 ones included:
#    fp64 reference, three launches per M, the flags' reset) and `projkit check` of each wmc1 config
#    that the rule may plan, over its family's range;
# 2. the A/B (ab_configs.sh, 200 pairs, the plan's config first) at qkv / o / pooler / unpooler
#    M 96..256;
# 3. light stamps (p13_skip_probe.sh mode 0) of the plan's config and wmc1 at pooler / unpooler M 256;
# 4. plan Z5 by plan_z5_from_e87.py (rule in its docstring); if it wrote one, plan_ab_ship.sh (three
#    plan A/B rounds against plan Z4, session 22's verdict, and if it ships, its results).
# Usage: tools/experiments/call2_s26.sh BIN LIGHT_STAMPS_BIN OUT_DIR   (~10 min if it ships)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
c() { echo "$W.bm$1.split$2.mc1.stages$3.xfit1.red5.rk1$4"; }
w64() { c 64 "$1" 8 .ki1.wmc1; }
w128() { c 128 "$1" 6 .ki1.wmc1; }
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Dense/WgmmaTmaRed5*' \
  "qkv:65..128:$(w64 3)" "qkv:129..256:$(w128 3)" "o:65..128:$(w64 1)" "o:129..256:$(w128 1)" \
  "pooler:65..128:$(w64 2)" "pooler:129..256:$(w128 2)" "unpooler:65..128:$(w64 1)" "unpooler:129..256:$(w128 1)"
echo "== E87 A/B ($(date +%T))"
CASES=""
for m in 96 128; do CASES="$CASES qkv:$m:$(c 128 4 6 .ki1.wsl1),$(w64 3)"; done
for m in 160 192; do CASES="$CASES qkv:$m:$(c 192 7 5 .ki1.ko1),$(w128 3)"; done
for m in 224 256; do CASES="$CASES qkv:$m:$(c 256 7 4 .ki1.ko1),$(w128 3)"; done
for m in 96 128; do CASES="$CASES o:$m:baseline,$(w64 1)"; done
for m in 192 256; do CASES="$CASES o:$m:baseline,$(w128 1)"; done
for m in 96 128; do CASES="$CASES pooler:$m:$(c 128 4 6 .ki1),$(w64 2)"; done
for m in 160 192; do CASES="$CASES pooler:$m:$(c 192 4 5 .ki1),$(w128 2)"; done
for m in 224 256; do CASES="$CASES pooler:$m:$(c 256 4 4 .ki1),$(w128 2)"; done
for m in 96 128; do CASES="$CASES unpooler:$m:$(c 128 2 6 .ki1),$(w64 1)"; done
for m in 160 192; do CASES="$CASES unpooler:$m:$(c 192 2 5 ''),$(w128 1)"; done
for m in 224 256; do CASES="$CASES unpooler:$m:$(c 256 2 4 .ki1),$(w128 1)"; done
CASES=$CASES PAIRS=200 TAG=e87 KEEP_JSON=1 timeout 300 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e87.txt"
(cd tools/experiments && python3 plan_z5_from_e87.py "$O/ab" ../../plans/h200.json "$O/plan-z5.json") | tee "$O/plan-rule.txt"
rm -f "$O"/ab/b-*.json
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
echo "== light stamps, the plan's config against wmc1 at M 256 ($(date +%T), $SECONDS s)"
SKIP_TESTS=1 MODES="0 0" CASES="pooler:256:$(c 256 4 4 .ki1) pooler:256:$(w128 2) unpooler:256:$(c 256 2 4 .ki1) \
unpooler:256:$(w128 1)" timeout 100 tools/experiments/p13_skip_probe.sh "$BIN" "$SBIN" "$O/p13" >"$O/p13.txt" 2>&1
echo "p13 rc=$?"
mkdir -p "$O/p13/st" && tar xJf "$O/p13/stamps.tar.xz" -C "$O/p13/st" &&
  python3 tools/experiments/stamps_phases.py "$O/p13/st/stamps" | tee "$O/stamps-e87.txt"; rm -rf "$O/p13/st"
if [ -f "$O/plan-z5.json" ]; then
  LEFT_S=$((585 - SECONDS)) tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$O/plan-z5.json" Z5
fi
echo "done ($SECONDS s)"
