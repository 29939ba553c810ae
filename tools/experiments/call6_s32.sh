#!/usr/bin/env bash
# Session 32, call 6: P32 continued. Call 5 found the flush alone costs no code fetch for up to
# 64 KB of code; here tools/dev/code_fetch.cu also times each kernel's start (its CTAs' entry after
# the preceding kernel's end) and adds an evictor (256 KB of code run in between) with and without
# the flush: SM instruction caches hit / L2 / DRAM. Twice, to see the spread between runs.
# Information only.
# Usage: tools/experiments/call6_s32.sh BIN OUT_DIR   (~30 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/code_fetch_runs.sh "$BIN" "$O"
