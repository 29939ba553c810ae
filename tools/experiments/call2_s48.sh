#!/usr/bin/env bash
# Session 48, call 2 (call 1 ran call1_s47.sh as prepared on an H100: E111 refuted; its
# call2_s47.sh did not start, the file lacked its mode bit). Three parts, the results first:
# 1. tools/device_results.sh BIN OUT/r "tests bench check" with BIN, the build after E111's
#    removal: every GPU test, the GPU tests under compute-sanitizer memcheck, the default bench on
#    the device's shipped plan (100 pairs), check over M 1..256.
# 2. bash call2_s47.sh with SBIN, the E111 build's light-stamps projkit (014de11): per-half stamps
#    of the plan's method, wt1, wt1.sk1, wt1.sk2 at qkv / pooler M 256 and pooler M 128: why the
#    skew lost (does the short half's drain overlap the long half's loops, as E111 assumed?).
# 3. On an H200 only (the hypothesis was the H200's): the same-binary A/B of call3_s47.sh (200
#    pairs, A B C D D C B A at M 128 / 256 of qkv, pooler, unpooler, o: the plan's method, wt1,
#    wt1.sk1, wt1.sk2) with OBIN, the E111 build's projkit; no GPU suite (call 1 ran it and the
#    checks on the H100; OBIN carries no test binary), no rule, no plan move.
# Usage: tools/experiments/call2_s48.sh BIN OBIN SBIN OUT_DIR   (~4 min; ~5.5 on an H200)
set -u
BIN=${1:?}; OBIN=${2:?}; SBIN=${3:?}; O=${4:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
PLAN=$(device_plan "$O")
echo "device plan: $PLAN"
BENCH_PAIRS=100 timeout 300 tools/device_results.sh "$BIN" "$O/r" "tests bench check" 2>&1 | tail -16
timeout 150 bash tools/experiments/call2_s47.sh "$SBIN" "$O/c2" 2>&1 | tail -14
if [ "$PLAN" = h200.json ]; then
  CASES=""
  for f in qkv pooler unpooler o; do
    CASES="$CASES $f:256:$(plan_at "$f" 256),$W256,$W256.sk1,$W256.sk2"
    CASES="$CASES $f:128:$(plan_at "$f" 128),$W128,$W128.sk1,$W128.sk2"
  done
  CASES=$CASES PAIRS=200 TAG=e111h200 timeout 200 tools/experiments/ab_configs.sh "$OBIN" "$O/ab" >/dev/null
  cat "$O/ab/summary-e111h200.txt"
fi
echo "done ($SECONDS s)"
