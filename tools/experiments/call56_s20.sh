#!/usr/bin/env bash
# Session 20: calls 5 and 6 in one device call (refused starts left too little device time for
# two cold starts): call5_s20.sh (E71, plan X by its rule, plan A/B), then plans/h200.json = plan X
# if the rule moved it, then call6_s20.sh (the full results). call 5's directory is packed into
# OUT_DIR/c5.tar.xz (the transfer returns at most 8 files). Eight refused starts left 459 s of
# device time, so the results leave out the 1..256 sweep and its atlas (results/h200/'s sweep
# stays run T2's; the plans differ at M <= 4 only).
# Usage: tools/experiments/call56_s20.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/call5_s20.sh "$BIN" "$O/c5" >"$O/call5.txt" 2>&1
[ -f "$O/c5/plan-x.json" ] && cp "$O/c5/plan-x.json" plans/h200.json && echo "plans/h200.json = plan X" >>"$O/call5.txt"
tar cJf "$O/c5.tar.xz" -C "$O" c5 && rm -rf "$O/c5"
STEPS="bench tests floor aa check fidelity pytest" tools/experiments/call6_s20.sh "$BIN" "$O/c6" >"$O/call6.txt" 2>&1
grep -E "summary|M   [1-4] |adopt|keep|plan X|plan A/B scores|score O" "$O/call5.txt" | head -40
tail -32 "$O/call6.txt"
