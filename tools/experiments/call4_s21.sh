#!/usr/bin/env bash
# Session 21, call 4, on the final tree (gemv_stream mb4 compiled for m = 1 only):
# 1. the GPU suite and `projkit check` over M 1..256 of the shipped plan (plan W);
# 2. E74: kperm_splitk_zw.wr8.wk1.u8 (64 rows, 128 CTAs) against plan W's wr4.wk2.u8 at the
#    unpooler slice, M 3 / 4 / 6 / 8 (ab_configs.sh, 200 pairs);
# 3. E75: router_hilo_stream.kw8.wn2.zw1 (plan W's at M 25..32) against kw4.wn2.zw1 (plan W's at
#    M 4..24) at M 24 / 20 / 16 / 12 / 8;
# 4. plan X by rules fixed before this call (plan_x_from_e74.py); if it moved the plan: three
#    plan A/B rounds (W against X, 200 pairs, W X X W) and the ship rule: X ships if every changed
#    scored case (unpooler M 8, router M 8 / 16) gains >= +1 % in mean paired ratio over the rounds
#    and the mean score change is >= -0.3 %; then the results of X (bench 400 pairs, check, A/A,
#    fidelity, pytest, floor, GPU tests + memcheck last) in what is left of 470 s (the device time left).
# Usage: tools/experiments/call4_s21.sh BIN OUT_DIR   (~3-8 min)
# (The ship verdict's code moved into tools/experiments/plan_ab_verdict.py after the call, in the
# session's review; on the call's committed files it gives the call's verdict.)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/e74"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/e74
echo "== GPU suite ($(date +%T))"
timeout 120 "$BIN/projkit_gpu_tests" >"$E/gtest-all.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest-all.txt" | tr '\n' ' ')"
timeout 120 "$BIN/projkit" check --json "$E/check-plan-w.json" >"$E/check-plan-w.txt" 2>&1
echo "check plan W rc=$? | $(tail -1 "$E/check-plan-w.txt")"
echo "== A/B ($(date +%T))"
U4=kperm_splitk_zw.wr4.wk2.u8 U8=kperm_splitk_zw.wr8.wk1.u8
R4=router_hilo_stream.kw4.wn2.zw1 R8=router_hilo_stream.kw8.wn2.zw1
CASES="unpooler:8:$U4,$U8 unpooler:6:$U4,$U8 unpooler:4:$U4,$U8 unpooler:3:$U4,$U8" TAG=e74 KEEP_JSON=1 \
  timeout 150 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
CASES="router:24:$R4,$R8 router:20:$R4,$R8 router:16:$R4,$R8 router:12:$R4,$R8 router:8:$R4,$R8" TAG=e75 KEEP_JSON=1 \
  timeout 150 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-e74.txt" "$E/summary-e75.txt"
echo "== plan rule ($(date +%T), $SECONDS s)"
(cd tools/experiments && python3 plan_x_from_e74.py "$E" ../../plans/h200.json "$O/plan-x.json") | tee "$O/plan-rule.txt"
rm -f "$E"/b-*.json  # packed in bench-e74/e75.tar.xz by ab_configs.sh
SHIP=0
if [ -f "$O/plan-x.json" ]; then
  for round in 1 2 3; do
    echo "== plan A/B round $round ($(date +%T))"
    tools/experiments/plan_ab_q.sh "$BIN" "$O/ab$round" plans/h200.json "$O/plan-x.json" 2>&1 | grep -E "scores|score O|ratio O"
  done
  SHIP=$(python3 tools/experiments/plan_ab_verdict.py --rounds 3 --score-min -0.003 --case-min 0.01 "$O/ab1" "$O/ab2" "$O/ab3")
  tar cJf "$O/ab123.tar.xz" -C "$O" ab1 ab2 ab3 && rm -rf "$O/ab1" "$O/ab2" "$O/ab3"
fi
echo "ship plan X: $SHIP ($SECONDS s)"
if [ "$SHIP" = 1 ]; then
  cp "$O/plan-x.json" plans/h200.json
  echo "== results of plan X ($(date +%T))"
  BENCH_PAIRS=400 timeout $((470 - SECONDS)) tools/device_results.sh "$BIN" "$O/res" \
    "bench check aa fidelity pytest floor tests" >"$O/results.txt" 2>&1; echo "results rc=$?"
  tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
  tail -45 "$O/results.txt"
fi
tar cJf "$O/e74.tar.xz" -C "$O" e74 && rm -rf "$O/e74"
echo "done ($SECONDS s)"
