#!/usr/bin/env bash
# Session 21, call 2: E72 / E73 (tools/experiments/e72_kperm_splitk_zw.sh), then plan W by its rule
# (plan_w_from_e72.py, fixed before the run), then
# - if the rule moved the plan: two plan A/B rounds, V against W (plan_ab_rounds.sh, 200 pairs,
#   V W W V each). W ships if the mean of the two rounds' score change is >= 0 and every case
#   whose method changed gains in mean ratio over the two rounds; then the results of the shipped
#   plan (tools/device_results.sh: bench 400 pairs, GPU tests + memcheck, floor, A/A, check,
#   fidelity, pytest, and the 1..256 sweep with its atlas when the call has time left for it);
# - else: the GPU suite on this tree (no memcheck).
# Everything is packed into a few tarballs (the transfer returns at most 8 files).
# Usage: tools/experiments/call2_s21.sh BIN OUT_DIR   (~6-9 min; the results steps get what is left of
#   575 s, the GPU suite + memcheck last)
# (The ship verdict's code moved into tools/experiments/plan_ab_verdict.py after the call, in the
# session's review; on the call's committed files it gives the call's verdict.)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
KEEP_JSON=1 timeout 360 tools/experiments/e72_kperm_splitk_zw.sh "$BIN" "$O/c2" >"$O/e72.txt" 2>&1
echo "e72 rc=$? ($SECONDS s)"; grep -v "^$" "$O/e72.txt" | tail -40
echo "== plan rule ($(date +%T))"
(cd tools/experiments && python3 plan_w_from_e72.py "$O/c2/e72" ../../plans/h200.json "$O/plan-w.json") | tee "$O/plan-rule.txt"
rm -f "$O"/c2/e72/b-*.json  # packed in e72.tar.xz by ab_configs.sh
SHIP=0
if [ -f "$O/plan-w.json" ]; then
  tools/experiments/plan_ab_rounds.sh "$BIN" "$O/pab" plans/h200.json "$O/plan-w.json" >"$O/plan-ab.txt" 2>&1
  grep -E "plan A/B scores|score O|ratio O" "$O/plan-ab.txt"
  mkdir -p "$O/pabx" && tar xJf "$O/pab/ab.tar.xz" -C "$O/pabx"
  SHIP=$(python3 tools/experiments/plan_ab_verdict.py --score-min 0 --case-min 1e-12 "$O/pabx/ab1" "$O/pabx/ab2")
  rm -rf "$O/pabx"
fi
echo "ship plan W: $SHIP ($SECONDS s)"
if [ "$SHIP" = 1 ]; then
  cp "$O/plan-w.json" plans/h200.json
  STEPS="bench check aa fidelity pytest floor tests"  # the GPU suite + memcheck last: cut first if time runs out
  [ "$SECONDS" -lt 230 ] && STEPS="bench check aa fidelity pytest floor sweep report tests"
  echo "== results of plan W: $STEPS ($(date +%T))"
  BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout $((575 - SECONDS)) tools/device_results.sh "$BIN" "$O/res" "$STEPS" \
    >"$O/results.txt" 2>&1; echo "results rc=$?"
  tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
  tail -45 "$O/results.txt"
else
  echo "== GPU suite ($(date +%T))"
  timeout 120 "$BIN/projkit_gpu_tests" >"$O/gtest-all.txt" 2>&1; echo "gtest rc=$?"
  grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$O/gtest-all.txt" | head
fi
tar cJf "$O/c2.tar.xz" -C "$O" c2 && rm -rf "$O/c2"
echo "done ($SECONDS s)"
