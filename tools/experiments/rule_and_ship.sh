#!/usr/bin/env bash
# The tail of session 23's A/B calls (call2_s23.sh .. call4_s23.sh): the plan rule over the A/B's
# files in OUT_DIR/ab, the A/B packed into OUT_DIR/ab.tar.xz, and if the rule wrote a plan, three
# plan A/B rounds against plans/h200.json and the ship verdict (plan_ab_ship.sh with RESULTS=0: the
# results of a shipped plan are a later call's).
# Session 27: RESULTS=1 (with LEFT_S, the seconds left) lets plan_ab_ship.sh run a shipped plan's
# results in the same call, and VERDICT_ARGS passes on to its verdict.
# Usage: [RESULTS=1 LEFT_S=N] [VERDICT_ARGS=..] tools/experiments/rule_and_ship.sh BIN OUT_DIR RULE.py NAME
#   RULE.py (in tools/experiments) is run as `RULE.py OUT_DIR/ab plans/h200.json OUT_DIR/plan-<name>.json`
#   and prints to OUT_DIR/plan-rule.txt; NAME names the candidate plan (AA, Z2, ..).
set -u
BIN=${1:?}; O=${2:?}; RULE=${3:?}; NAME=${4:?}
E=$O/ab
PLAN=$O/plan-$(echo "$NAME" | tr '[:upper:]' '[:lower:]').json
echo "== plan rule ($(date +%T), $SECONDS s)"
(cd tools/experiments && python3 "$RULE" "$E" ../../plans/h200.json "$PLAN") | tee "$O/plan-rule.txt"
rm -f "$E"/b-*.json  # packed in bench-<tag>.tar.xz by ab_configs.sh
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$E"
if [ -f "$PLAN" ]; then
  RESULTS=${RESULTS:-0} tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$PLAN" "$NAME"
else
  echo "ship plan $NAME: 0 ($SECONDS s)"
fi
