#!/usr/bin/env bash
# Two plan A/B rounds (plan_ab_q.sh: PLAN_O against PLAN_Q, 200 pairs, O Q Q O each), packed into
# OUT_DIR/ab.tar.xz. Used by the session-20 call scripts after a plan rule moved the plan.
# Usage: tools/experiments/plan_ab_rounds.sh BIN OUT_DIR PLAN_O PLAN_Q   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; PO=${3:?}; PQ=${4:?}
for round in 1 2; do
  echo "== plan A/B round $round ($(date +%T))"
  tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" "$PO" "$PQ" 2>&1 | head -40
done
tar cJf "$O/ab.tar.xz" -C "$O" ab1 ab2 && rm -rf "$O/ab1" "$O/ab2"
