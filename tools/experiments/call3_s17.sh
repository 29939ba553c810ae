#!/usr/bin/env bash
# Session 17, call 3: E63 confirmed or not over the M ranges of the large token tiles (base rk1
# against ki1, same binary, 200 pairs, base ki1 ki1 base), then one plan A/B round on the default
# workload: plan R (plans/h200.json) against candidate plan S (ki1 on pooler M 77..256, qkv
# M 193..256, unpooler M 65..117 and 128; results/h200/session17/plan-s-candidate.json).
# Usage: tools/experiments/call3_s17.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
. tools/experiments/red5_ab_lib.sh
cases=""
for m in 72 96 128 160 192; do cases+=" pooler:$m:$P192,$P192.ki1"; done
for m in 224 256; do cases+=" pooler:$m:$P256,$P256.ki1"; done
for m in 160 192; do cases+=" qkv:$m:$Q192,$Q192.ki1"; done
for m in 224 256; do cases+=" qkv:$m:$Q256,$Q256.ki1"; done
for m in 80 96 128; do cases+=" unpooler:$m:$U128,$U128.ki1"; done
for m in 160 192; do cases+=" unpooler:$m:$U192,$U192.ki1"; done
for m in 240 256; do cases+=" unpooler:$m:$U256,$U256.ki1"; done
echo "== E63 confirmation ($(date +%T))"
CASES="$cases" PAIRS=200 TAG=e63b tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
echo "== plan A/B R (O) against S (Q) ($(date +%T))"
tools/experiments/plan_ab_q.sh "$BIN" "$O/ab1" plans/h200.json results/h200/session17/plan-s-candidate.json >/dev/null
echo "== summary ($(date +%T))"
cat "$O/summary-e63b.txt" "$O/ab1/ab-summary.txt"
