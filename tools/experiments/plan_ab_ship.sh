#!/usr/bin/env bash
# The ship step of session 22's calls 2 and 4 (call2_s22.sh and call4_s22.sh ran it inline; it moved
# here in the session's review): three plan A/B rounds of PLAN_NEW against plans/h200.json
# (plan_ab_q.sh, 200 pairs, O Q Q O), the verdict fixed in those calls (plan_ab_verdict.py --rounds 3
# --score-min -0.003 --case-min 0.005: every changed scored case gains >= +0.5 % in mean paired
# ratio, the mean score change is >= -0.3 %), and if it ships: plans/h200.json = PLAN_NEW and its
# results (tools/device_results.sh: bench 400 pairs, check, A/A, fidelity, pytest, floor, GPU tests
# + memcheck, the 1..256 sweep at 300 pairs) in the LEFT_S seconds the caller has left (default 520).
# Writes OUT_DIR/ab123.tar.xz, and OUT_DIR/results.txt and res.tar.xz when it ships. RESULTS=0
# (session 23): the verdict only (OUT_DIR/ship.txt holds it); the caller runs the results later.
# VERDICT_ARGS (session 27) replaces the verdict's thresholds (e.g. call5_s27.sh's tie-tolerant
# "--rounds 3 --score-min -0.003 --need qkv:8:-0.005 --need qkv:16:-0.005").
# Usage: [LEFT_S=N] [RESULTS=0] [VERDICT_ARGS=..] tools/experiments/plan_ab_ship.sh BIN OUT_DIR PLAN_NEW NAME
set -u
BIN=${1:?}; O=${2:?}; PN=${3:?}; NAME=${4:?}
LEFT_S=${LEFT_S:-520}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for round in 1 2 3; do
  echo "== plan A/B round $round ($(date +%T))"
  timeout 100 tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" plans/h200.json "$PN" 2>&1 | grep -E "scores|score O|ratio O"
done
SHIP=$(python3 tools/experiments/plan_ab_verdict.py ${VERDICT_ARGS:---rounds 3 --score-min -0.003 --case-min 0.005} "$O"/ab[123])
tar cJf "$O/ab123.tar.xz" -C "$O" ab1 ab2 ab3 && rm -rf "$O"/ab[123]
echo "ship plan $NAME: $SHIP"
echo "$SHIP" >"$O/ship.txt"
if [ "$SHIP" = 1 ] && [ "${RESULTS:-1}" != 0 ]; then
  cp "$PN" plans/h200.json
  echo "== results of plan $NAME ($(date +%T))"
  BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout $((LEFT_S - SECONDS)) tools/device_results.sh "$BIN" "$O/res" \
    "bench check aa fidelity pytest floor tests sweep" >"$O/results.txt" 2>&1; echo "results rc=$?"
  tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
  tail -45 "$O/results.txt"
fi
