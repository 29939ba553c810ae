#!/usr/bin/env bash
# E71 (session 20): gemv_bulk_ring (16 KB bulk copies of whole W rows into an 8-stage smem ring,
# units interleaved over a grid of one CTA per SM, one consumer warp per stage) against the plan's
# configs at M 1 (every dense family), 2 and 4.
# 1. GPU suite Dense/SplitkStream for gemv_bulk_ring (four dense families, M 1..3 of the suite's
#    list: fp64 reference, poisoned y, graph replay, NaN then clean call, two streams).
# 2. `projkit check --method gemv_bulk_ring.stages8` over M 1..4 on the four dense families.
# 3. Same-binary A/B, 200 pairs (plan config, bulk ring, bulk ring, plan config). Everything is
#    packed into OUT_DIR/e71.tar.xz; the JSONs stay unpacked in OUT_DIR/e71 for plan_x_from_e71.py.
# Usage: tools/experiments/e71_gemv_bulk_ring.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; E=$O/e71; mkdir -p "$E"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=gemv_bulk_ring.stages8
echo "== GPU suite, gemv_bulk_ring ($(date +%T))"
timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/SplitkStream.*/5' >"$E/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest.txt" | tr '\n' ' ')"
echo "== check ($(date +%T))"
timeout 120 "$BIN/projkit" check --method "$B" --families qkv,o,pooler,unpooler --m 1..4 >"$E/check-$B.txt" 2>&1
echo "check $B rc=$? | $(tail -1 "$E/check-$B.txt")"
echo "== A/B ($(date +%T))"
plan() { python3 -c "import json,sys; p=json.load(open('plans/h200.json')); \
print(next(r['method'] for r in p['families']['$1'] if r['m'][0] <= $2 <= r['m'][1]))"; }
CASES=""
for fm in qkv:1 o:1 pooler:1 unpooler:1 qkv:2 pooler:2 unpooler:2 o:4 pooler:4 unpooler:4; do
  IFS=: read -r f m <<<"$fm"
  CASES="$CASES $f:$m:$(plan "$f" "$m"),$B"
done
CASES="$CASES" TAG=e71 timeout 300 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
tar xJf "$E/bench-e71.tar.xz" -C "$E"
tar cJf "$O/e71.tar.xz" -C "$O" --exclude='b-e71-*.json' e71
echo "== summary ($(date +%T))"
cat "$E/summary-e71.txt"
