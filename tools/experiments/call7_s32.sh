#!/usr/bin/env bash
# Session 32, call 7: P32 with the baseline in between. Calls 5 and 6: the flush alone costs no code
# fetch for up to 64 KB of code (the SMs' instruction caches keep it); code that another kernel
# evicted costs ~0.25 us of run from L2 or DRAM. Here tools/dev/code_fetch.cu adds torch's cuBLAS
# call on the pooler's shape at M 8 and 256 before the flush, as in the bench's pairing: does the
# baseline's kernel evict ours? Twice, to see the spread between runs. Information only.
# Usage: tools/experiments/call7_s32.sh BIN OUT_DIR   (~30 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/code_fetch_runs.sh "$BIN" "$O"
