#!/usr/bin/env bash
# Session 21, call 1: the full results of plans/h200.json (plan V) with the 1..256 sweep
# (tools/experiments/call6_s20.sh: GPU tests + memcheck, floor, bench 400 pairs, A/A, check,
# sweep 300 pairs, fidelity, pytest, atlas), then a second baseline-fidelity run (run V's router
# M 1 reading failed the 3 % bound once; session 20 lead 4).
# Usage: tools/experiments/call1_s21.sh BIN OUT_DIR   (~6 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tools/experiments/call6_s20.sh "$BIN" "$O"
echo "== second fidelity run ($(date +%T))"
python3 tools/baseline_fidelity.py "$BIN/projkit" --paired --json "$O/baseline-fidelity-2.json" >"$O/fidelity-2.txt" 2>&1
echo "rc=$?"; tail -12 "$O/fidelity-2.txt"
