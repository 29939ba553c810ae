#!/usr/bin/env bash
# Session 42, calls 2 and 4 (written for an H200; both ran on an H100): E109 (router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1)
# against the plan's ring config over the ring's whole M range. Call 1 (an H100, call2_s41.sh) passed
# the router suites, check M 1..256, the GPU suite and router memcheck with E109, and read +0.9 /
# +1.7 / +0.9 / +6.0 % at M 72 / 128 / 192 / 256.
# 1. `projkit check --method E109` over M 1..256 (this machine), then the same-binary A/B (200
#    pairs, A B B A per case) at router M 65 80 100 128 160 192 224 256.
# Rule (fixed before the call): a plan range moves to E109 only where E109 gains >= 1 % in paired
# ratio and in time at every measured M of that range.
# Usage: [MS="..."] tools/experiments/call1_s42.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$O/device.txt"
P=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
E=router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1
timeout 120 "$BIN/projkit" check --method "$E" --families router --m 1..256 >"$O/check-e109.txt" 2>&1
echo "check rc=$? | $(tail -1 "$O/check-e109.txt")" | tee "$O/summary.txt"
MS=${MS:-"65 80 100 128 160 192 224 256"}
CASES=""; for m in $MS; do CASES="$CASES router:$m:$P,$E"; done
CASES=$CASES PAIRS=200 TAG=e109 timeout 400 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e109.txt" >>"$O/summary.txt"
rm -f "$O/ab/summary-e109.txt"
echo "== E109 (us, paired ratio against the plan's ring config)"; cat "$O/summary.txt"
echo "done ($SECONDS s)"
