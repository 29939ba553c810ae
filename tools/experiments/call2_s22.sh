#!/usr/bin/env bash
# Session 22, call 2: plan X against plan Y (call 1's plan rule), the plan A/B rounds still missing
# to make three (200 pairs, X Y Y X; call 1's rounds are read from C1_DIR/ab123.tar.xz), then the
# ship verdict fixed in call 1's script: every changed scored case gains >= +0.5 % in mean paired
# ratio over the three rounds and the mean score change is >= -0.3 %. If Y ships: plans/h200.json
# = Y and its results (bench 400 pairs, check, A/A, fidelity, pytest, floor, GPU tests + memcheck)
# in what is left of 560 s.
# Usage: tools/experiments/call2_s22.sh BIN OUT_DIR C1_DIR   (~4-9 min)
set -u
BIN=${1:?}; O=${2:?}; C1=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
PY=$C1/plan-y.json
[ -f "$PY" ] || { echo "no plan Y in $C1: nothing to do"; exit 0; }
mkdir -p "$O/prev" && tar xJf "$C1/ab123.tar.xz" -C "$O/prev" 2>/dev/null
have=$(ls -d "$O"/prev/ab[123] 2>/dev/null | wc -l)
for ((round = have + 1; round <= 3; ++round)); do
  echo "== plan A/B round $round ($(date +%T))"
  tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" plans/h200.json "$PY" 2>&1 | grep -E "scores|score O|ratio O"
done
SHIP=$(python3 tools/experiments/plan_ab_verdict.py --rounds 3 --score-min -0.003 --case-min 0.005 \
  $(ls -d "$O"/prev/ab[123] "$O"/ab[123] 2>/dev/null))
tar cJf "$O/ab-rounds.tar.xz" -C "$O" $(cd "$O" && ls -d ab[123] 2>/dev/null) 2>/dev/null; rm -rf "$O"/ab[123] "$O/prev"
echo "ship plan Y: $SHIP ($SECONDS s)"
if [ "$SHIP" = 1 ]; then
  cp "$PY" plans/h200.json
  echo "== results of plan Y ($(date +%T))"
  BENCH_PAIRS=400 timeout $((560 - SECONDS)) tools/device_results.sh "$BIN" "$O/res" \
    "bench check aa fidelity pytest floor tests" >"$O/results.txt" 2>&1; echo "results rc=$?"
  tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
  tail -45 "$O/results.txt"
fi
echo "done ($SECONDS s)"
