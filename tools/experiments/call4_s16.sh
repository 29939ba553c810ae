#!/usr/bin/env bash
# Session 16, call 4: E59b (rk1 and wt1 against the equal split at M 8..64, same binary, through
# the e58 harness) and P14 (stamps of base vs rk1). Usage: tools/experiments/call4_s16.sh BIN SBIN OUT
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O"
VARS="wt1 rk1" CHECKS=" " CASES="pooler:8:P64 pooler:16:P64 pooler:32:P64 unpooler:32:P64 unpooler:64:P64 qkv:8:Q64 qkv:16:Q64" \
  tools/experiments/e58_sm_work_table.sh "$BIN" "$O/e59b" >"$O/e59b.txt" 2>&1
tar cJf "$O/e59b/bench.tar.xz" -C "$O/e59b" $(cd "$O/e59b" && ls b-*.json) && rm -f "$O"/e59b/b-*.json
tools/experiments/p14_rk1_stamps.sh "$SBIN" "$O/p14" >"$O/p14.txt" 2>&1
echo "== E59b"; grep -E "PASSED|FAILED|rc=" "$O/e59b.txt"; cat "$O/e59b/summary.txt"
echo "== P14"; cat "$O/p14/summary.txt"
