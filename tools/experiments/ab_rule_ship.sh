#!/usr/bin/env bash
# The A/B-and-rule tail of session 32's calls 3, 8 and 9 (call3_s32.sh, call8_s32.sh, call9_s32.sh):
# the same-binary A/B of the cases RULE.py --cases prints (ab_configs.sh, 200 pairs, tag TAG, the
# JSONs kept for the rule), its summary, then rule_and_ship.sh with RULE.py and plan NAME; RESULTS and
# LEFT_S (environment) pass on to it (RESULTS=0: the ship verdict only).
# Usage: [RESULTS=0|1] [LEFT_S=N] tools/experiments/ab_rule_ship.sh BIN OUT_DIR TAG RULE.py NAME AB_TIMEOUT_S
#   (OUT_DIR/ab holds the checks check_candidates.sh wrote; RULE.py is in tools/experiments)
set -u
BIN=${1:?}; O=${2:?}; TAG=${3:?}; RULE=${4:?}; NAME=${5:?}; T=${6:?}
echo "== $(echo "$TAG" | tr '[:lower:]' '[:upper:]') A/B ($(date +%T))"
CASES=$(cd tools/experiments && python3 "$RULE" --cases)
CASES=$CASES PAIRS=200 TAG=$TAG KEEP_JSON=1 timeout "$T" tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-$TAG.txt"
tools/experiments/rule_and_ship.sh "$BIN" "$O" "$RULE" "$NAME"
