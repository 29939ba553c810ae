#!/usr/bin/env bash
# Session 29, call 2: E93c, o M 17..32 on splitk_mma_l2.rows64.split1.wk2.lp1 re-measured (call 1:
# +3.5 / +1.7 / +0.9 % at M 17 / 24 / 32 against plan Z8's stages8), and if the rule moves a range,
# the ship of plan Z8b with its results.
# 1. `projkit check --method` of wk2.lp1 over o M 17..32.
# 2. Same-binary A/B (ab_configs.sh, 300 pairs, the plan's method first) at o M 17 / 20 / 24 / 28 /
#    31 / 32: stages8 against wk2.lp1.
# 3. rule_and_ship.sh with plan_z8b_from_e93c.py (fixed before the call): three plan A/B rounds of
#    plan Z8b against Z8 with session 22's verdict, and if it ships, its results.
# Usage: tools/experiments/call2_s29.sh BIN OUT_DIR   (~6 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
L=splitk_mma_l2.rows64.split1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" '' "o:17..32:$L.wk2.lp1"
echo "== E93c A/B ($(date +%T))"
CASES=""
for m in 17 20 24 28 31 32; do CASES="$CASES o:$m:$L.stages8,$L.wk2.lp1"; done
CASES=$CASES PAIRS=300 TAG=e93c KEEP_JSON=1 timeout 150 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e93c.txt"
RESULTS=1 LEFT_S=$((585 - SECONDS)) tools/experiments/rule_and_ship.sh "$BIN" "$O" plan_z8b_from_e93c.py Z8b
echo "done ($SECONDS s)"
