#!/usr/bin/env bash
# Session 47, call 3: E111's A/B cut to the scored M, for a start with little device time left
# (call1_s47.sh did not get a machine). The red5 GPU suite (the six wt1 configs at 15 M, three
# launches each), then the same-binary A/B (200 pairs, A B C D D C B A) at M 128 and 256 of qkv,
# pooler, unpooler and o: the plan's method at that M, then wt1, wt1.sk1, wt1.sk2 on the bm128
# tile (M 128) or the bm256 tile (M 256). No rule and no plan move: a gain here is for a later
# session to gate (check) and ship with call1_s47.sh's rule.
# Usage: tools/experiments/call3_s47.sh BIN OUT_DIR   (~1.5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
PLAN=$(device_plan "$O")
red5_suite "$BIN" "$O" | tee "$O/summary.txt"
CASES=""
for f in qkv pooler unpooler o; do
  CASES="$CASES $f:256:$(plan_at "$f" 256),$W256,$W256.sk1,$W256.sk2"
  CASES="$CASES $f:128:$(plan_at "$f" 128),$W128,$W128.sk1,$W128.sk2"
done
CASES=$CASES PAIRS=200 TAG=e111 timeout 200 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e111.txt" >>"$O/summary.txt"; rm -f "$O/ab/summary-e111.txt"
cat "$O/summary.txt"
echo "done ($SECONDS s)"
