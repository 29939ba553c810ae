#!/usr/bin/env bash
# Session 19, call 1: ship plan T2 (plan T with unpooler M 9..16 on bm64.split2.rk1.ki1.wsl1,
# results/h200/session18/plan-t2.json, now plans/h200.json). run_s.sh: two plan A/B rounds of
# plan T (O) against T2 (Q) on this machine, then the full results (tests incl. the Python
# copy-free test, floor with L7's interleaved variants, bench, sweep, check, fidelity, report).
# Usage: tools/experiments/call1_s19.sh BIN OUT_DIR   (~5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/run_s.sh "$BIN" "$O" results/h200/session18/c4-run-t/plan-t.json >"$O/run.txt" 2>&1
tail -45 "$O/run.txt"
tar cJf "$O/ab.tar.xz" -C "$O" ab1 ab2 && rm -rf "$O/ab1" "$O/ab2"
tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
ls "$O"
