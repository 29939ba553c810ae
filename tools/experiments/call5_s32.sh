#!/usr/bin/env bash
# Session 32, call 5: P32, what a kernel pays to fetch its own code after the judge's L2 flush
# (tools/dev/code_fetch.cu: straight-line IMAD chains of 0 / 16 / 64 / 256 KB of code, and the
# 256 KB chain's work as 4 passes over 64 KB; warm against cold after the bench's write flush).
# Twice, to see the spread between runs. Information only (no plan, no kernel changes). Then the
# final tree (ptx::globaltimer_ns shared; kernels byte-identical) through the GPU suite and pytest.
# Usage: tools/experiments/call5_s32.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/code_fetch_runs.sh "$BIN" "$O"
PYTEST=1 tools/experiments/gpu_suite.sh "$BIN" "$O"
