#!/usr/bin/env bash
# Session 41, call 3 (the short form of call2_s41.sh for a small device budget): E109's pairs
# (router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1) after the lean-start fix: the router GPU
# suites, `projkit check --method` over router M 1..256, then the same-binary A/B (200 pairs, A B B A)
# against the plan's ring config at router M 128 and 256 (the ranges E109 predicts a gain at: 256;
# a loss: 128). Rule as call2_s41.sh.
# Usage: tools/experiments/call3_s41.sh BIN OUT_DIR   (~1.5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$O/device.txt"
P=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
E=router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily.*:RouterLayouts.*' "router:1..256:$E" \
  | tee "$O/ab/correctness.txt"
if [ "$(cat "$O/ab/check-$E.txt")" = "check: PASS" ]; then
  CASES="router:128:$P,$E router:256:$P,$E" PAIRS=200 TAG=e109 timeout 120 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
fi
echo "== E109 (us, paired ratio against the plan's ring config)"
cat "$O/ab/summary-e109.txt" 2>/dev/null || echo "no A/B (check failed?)"
echo "done ($SECONDS s)"
