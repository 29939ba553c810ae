#!/usr/bin/env bash
# Session 23, call 3: E80b, splitk_mma_l2's two warps per slab (wk2) re-measured at o's 32-token
# tile (P22's ncu counters and E80's bench A/B disagree there) and tried against the baseline at
# o M 33..64.
# 1. `projkit check` of the candidates over o M 17..64;
# 2. the A/B (ab_configs.sh, 400 pairs, the incumbent first);
# 3. plan Z2 by plan_z2_from_e80b.py (rule in its docstring); if it moved the plan, three plan A/B
#    rounds against plan Z and the ship verdict (plan_ab_ship.sh, RESULTS=0); results are the next
#    call's.
# (The call ran steps 1 and 3 inline; they moved into check_candidates.sh and rule_and_ship.sh, the
# same commands with the calls' longest timeouts
# (check-o-<config>.txt besides check-<config>.txt now), in the session's review.)
# Usage: tools/experiments/call3_s23.sh BIN OUT_DIR   (~2-6 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/ab
L=splitk_mma_l2.rows64.split1
tools/experiments/check_candidates.sh "$BIN" "$E" "" \
  "o:17..64:$L.stages8.wk2" "o:17..64:$L.wk2" "o:17..64:$L.stages8"
echo "== E80b A/B ($(date +%T))"
S8=$L.stages8; C32="$S8,$S8.wk2,$L.wk2"; C64="baseline,$S8.wk2,$S8"
CASES="o:17:$C32 o:20:$C32 o:24:$C32 o:28:$C32 o:32:$C32 o:33:$C64 o:40:$C64 o:48:$C64 o:56:$C64 o:64:$C64" \
  PAIRS=400 TAG=e80b KEEP_JSON=1 timeout 200 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-e80b.txt"
tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z2_from_e80b.py Z2
echo "done ($SECONDS s)"
