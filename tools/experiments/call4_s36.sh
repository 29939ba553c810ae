#!/usr/bin/env bash
# Session 36, call 4 (information; no plan change follows in this session):
# 1. `projkit info` names the device's plan file (d10d750), and device_results.sh's tune step would
#    write that file (its PLAN_FILE line, run alone here).
# 2. `projkit tune` at nine unscored M (P31's settings) with the shipped H100 plan as incumbent:
#    where else does this chip prefer other listed configs (leads for a later session's rule)?
# Usage: tools/experiments/call4_s36.sh BIN_DIR OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PROJKIT_PLAN_DIR=$PWD/plans
echo "== device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) ($(date +%T))"
"$BIN/projkit" info >"$O/info.txt" 2>&1; echo "info rc=$?"
head -6 "$O/info.txt"
PLAN_FILE=$("$BIN/projkit" info 2>/dev/null | sed -n 's/^plan file for this device: \([^ ]*\).*/\1/p')
echo "device_results.sh's PLAN_FILE: ${PLAN_FILE:-<empty: falls back to h200.json>}"
echo "== tune at nine unscored M ($(date +%T))"
timeout 300 "$BIN/projkit" tune --m 48,96,112,144,160,176,208,224,240 --top 4 --screen-pairs 40 --pairs 200 \
  --log "$O/tune9.jsonl" --out "$O/tune9.json" 2>"$O/tune9.err" >/dev/null
echo "tune rc=$?"
python3 tools/experiments/rescreen_summary.py "$O/tune9.jsonl" | tee "$O/tune9-summary.txt"
xz -9 "$O/tune9.jsonl"
echo "== done ($(date +%T))"
