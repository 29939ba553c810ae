#!/usr/bin/env bash
# Session 32, call 10: P32's probe after the review (tools/dev/code_fetch.cu now flushes with
# lab::L2Flusher, stamps the preceding kernel's end with one thread, and takes lab::median), run twice,
# to show the mended probe reads as calls 6 and 7 did. Information only.
# Usage: tools/experiments/call10_s32.sh BIN OUT_DIR   (~10 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/code_fetch_runs.sh "$BIN" "$O"
