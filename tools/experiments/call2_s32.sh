#!/usr/bin/env bash
# Session 32, call 2: the tree after E96's removal (src and tests as in c49d8dc) through the whole
# GPU suite, and P31: every listed config screened again at the six scored loads (M 1, 8, 16, 32,
# 128, 256), with the plan's method as the incumbent: `projkit tune` (screen 40 pairs, the top 4
# and the incumbent retested at 200 pairs), its plan written aside and not shipped. Information:
# a challenger that leads the plan's method by >= 1 % in both paired ratio and time at a scored M
# is a lead for a same-binary A/B in a later call (the tune's one-method processes read P30's
# bias, so the screen alone moves nothing).
# Usage: tools/experiments/call2_s32.sh BIN OUT_DIR   (~5-8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tools/experiments/gpu_suite.sh "$BIN" "$O"
echo "== P31 rescreen ($(date +%T))"
timeout "${TUNE_S:-420}" "$BIN/projkit" tune --plan plans/h200.json --m 1,8,16,32,128,256 --top 4 --screen-pairs 40 --pairs 200 \
  --log "$O/rescreen.jsonl" --out "$O/rescreen-plan.json" 2>"$O/rescreen.err"
echo "tune rc=$? ($SECONDS s) | $(tail -1 "$O/rescreen.err")"
python3 tools/experiments/rescreen_summary.py "$O/rescreen.jsonl" | tee "$O/rescreen-summary.txt"
echo "done ($SECONDS s)"
