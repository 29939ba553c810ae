#!/usr/bin/env bash
# Session 17, call 8: does the E63 / E64 code (the k-block order as run-time values, kord) slow the
# paths that do not use it? wgmma_tma_red5_kernel<64> grew from 24 to 34 KB of .text. Binary A/B on
# plan R (no ki / ko config): BIN_R = session 16's last device binary (run R's cubins), BIN = this
# session's (run S2's cubins); default workload, 200 pairs, R S S R, two rounds (plan_ab_q.sh with
# BIN_Q). "O" is run R's binary, "Q" this session's.
# Usage: tools/experiments/call8_s17.sh BIN_R BIN OUT_DIR   (~1 min)
set -u
BR=${1:?}; B=${2:?}; O=${3:?}; mkdir -p "$O"
for round in 1 2; do
  echo "== binary A/B round $round ($(date +%T))"
  BIN_Q=$B tools/experiments/plan_ab_q.sh "$BR" "$O/ab$round" results/h200/session17/plan-r.json \
    results/h200/session17/plan-r.json 2>&1 | head -40
done
