#!/usr/bin/env bash
# Session 30, call 5: the final tree (fragment_stream_zw's two slower tiles removed after call 4; the
# remaining kernels' .text byte-identical): the whole GPU suite, pytest, and `projkit check` of plan
# Z9 over the unpooler at M 1..16.
# Usage: tools/experiments/call5_s30.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
PYTEST=1 tools/experiments/gpu_suite.sh "$BIN" "$O"
echo "== check ($(date +%T))"
timeout 120 "$BIN/projkit" check --families unpooler --m 1..16 >"$O/check-unpooler.txt" 2>&1
echo "check rc=$? | $(tail -1 "$O/check-unpooler.txt")"
echo "done ($SECONDS s)"
