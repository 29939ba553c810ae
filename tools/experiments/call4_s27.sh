#!/usr/bin/env bash
# Session 27, call 4: plan Z6's results on the session's final binary (run Z6b). Since call 2's run
# Z6, wgmma_tma's prepare no longer encodes a W tensor map for wsl2 (host only: all 31 kernels'
# .text byte-identical), and the floor probe gained --fill and P28's probes (lab only). The same
# steps as plan_ab_ship.sh's results: bench (400 pairs), check 1..256, A/A, fidelity, pytest, floor,
# GPU tests + memcheck, the 1..256 sweep (300 pairs).
# Usage: tools/experiments/call4_s27.sh BIN OUT_DIR   (~3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
BENCH_PAIRS=400 SWEEP_PAIRS=300 timeout 560 tools/device_results.sh "$BIN" "$O/res" \
  "bench check aa fidelity pytest floor tests sweep" >"$O/results.txt" 2>&1; echo "results rc=$?"
tar cJf "$O/res.tar.xz" -C "$O" res && rm -rf "$O/res"
tail -45 "$O/results.txt"
echo "done ($SECONDS s)"
