#!/usr/bin/env bash
# Session 21, call 5: the 1..256 sweep of the shipped plan X (300 pairs) and its atlas, the one
# results step call 4 left out (device time). Usage: tools/experiments/call5_s21.sh BIN OUT_DIR (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
SWEEP_PAIRS=300 timeout 150 tools/device_results.sh "$BIN" "$O/res" "sweep report" >"$O/results.txt" 2>&1
echo "rc=$?"; tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"; tail -8 "$O/results.txt"
