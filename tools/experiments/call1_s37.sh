#!/usr/bin/env bash
# Session 37, call 1 (information: leads for call 2's rule; no plan changes here). Branches on the card:
# - H200 (session 36's open question, ledger "What session 36 leaves" 3): do the H100's leads at
#   unscored M (wsl1 slabs on the bm192 / bm256 tiles, qkv bm256.split7.wsl1 at M 129..192, the o
#   W pair at M 33..71) gain on the H200 too? `projkit tune` at the same nine unscored M as
#   session 36's call 4 on the H100 (P31's settings), the shipped plans/h200.json as incumbent.
# - H100 80GB HBM3: the same tune at sixteen unscored M the H100 plan has not yet been screened at
#   (session 36 screened 1, 8, 16, 32, 128, 256 and 48, 96, 112, 144, 160, 176, 208, 224, 240),
#   the shipped plans/h100-80gb-hbm3.json as incumbent.
# - any other card: stop.
# Usage: tools/experiments/call1_s37.sh BIN_DIR OUT_DIR   (~1-2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PROJKIT_PLAN_DIR=$PWD/plans
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "== device: $name ($(date +%T))"
case "$name" in
  *H200*) MS=48,96,112,144,160,176,208,224,240 ;;
  *"H100 80GB HBM3"*) MS=2,4,12,24,40,56,72,80,88,104,120,136,184,200,232,248 ;;
  *) echo "neither an H200 nor an H100 80GB HBM3: stop"; exit 3 ;;
esac
"$BIN/projkit" info >"$O/info.txt" 2>&1; grep -i "plan file" "$O/info.txt"
echo "== tune at M $MS ($(date +%T))"
timeout 420 "$BIN/projkit" tune --m "$MS" --top 4 --screen-pairs 40 --pairs 200 \
  --log "$O/tune.jsonl" --out "$O/tune.json" 2>"$O/tune.err" >/dev/null
echo "tune rc=$?"
python3 tools/experiments/rescreen_summary.py "$O/tune.jsonl" | tee "$O/tune-summary.txt"
xz -9 "$O/tune.jsonl"
echo "== done ($(date +%T), $SECONDS s)"
