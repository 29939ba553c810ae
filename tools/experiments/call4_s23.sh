#!/usr/bin/env bash
# Session 23, call 4: E82, splitk_mma_l2 with four warps per 16-row slab (wk4) at o M 1..64.
# 1. correctness: the small-M split-K GPU suite (every splitk_mma_l2 config, wk4 included) and
#    `projkit check` of the wk4 configs over o M 1..64;
# 2. the A/B (ab_configs.sh, 300 pairs, plan Z's method first: the baseline at M >= 33);
# 3. plan Z2 by plan_z2_from_e82.py (rule in its docstring); if it moved the plan, three plan A/B
#    rounds against plan Z and the ship verdict (plan_ab_ship.sh, RESULTS=0); a shipped plan's
#    results are the next call's.
# (The call ran step 1 inline; it moved into check_candidates.sh, the same commands
# with the calls' longest timeouts
# (check-o-<config>.txt besides check-<config>.txt now), in the session's review.)
# Usage: tools/experiments/call4_s23.sh BIN OUT_DIR   (~3-7 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/ab
L=splitk_mma_l2.rows64.split1
tools/experiments/check_candidates.sh "$BIN" "$E" '*SplitkStream*' "o:1..64:$L.wk4" "o:1..64:$L.stages8.wk4"
echo "== E82 A/B ($(date +%T))"
C8="$L,$L.wk4,$L.stages8.wk4"; C16="$L.wk2,$L.wk4,$L.stages8.wk4"; C32="$L.stages8,$L.stages8.wk4,$L.wk4"
C64="baseline,$L.stages8.wk4,$L.wk4"
CASES="o:1:$C8 o:4:$C8 o:8:$C8 o:9:$C16 o:12:$C16 o:16:$C16 o:17:$C32 o:24:$C32 o:32:$C32 \
o:33:$C64 o:40:$C64 o:48:$C64 o:56:$C64 o:64:$C64" PAIRS=300 TAG=e82 KEEP_JSON=1 \
  timeout 240 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-e82.txt"
tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z2_from_e82.py Z2
echo "done ($SECONDS s)"
