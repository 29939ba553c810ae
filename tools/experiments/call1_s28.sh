#!/usr/bin/env bash
# Session 28, call 1.
# 1. The whole GPU suite, first: session 27's fixed RouterLayouts.StreamTilesShareOnePackedCopy has
#    never run on a GPU; the suite also runs every gemv_stream config, E90's lp1 ones included,
#    through Dense/SplitkStream (fp64 reference, NaN-poisoned y, graph replay, two streams).
# 2. E90, gemv_stream's lean prologue (lp1): `projkit check --method` of the three lp1 configs over
#    the families and M they can run, then the same-binary A/B (ab_configs.sh, 200 pairs, the plan's
#    method first) at the plan's gemv cases: unpooler M 1 / 2 (rows4.warps8), pooler M 1
#    (rows2.warps8), qkv M 1 (rows2.warps8.eq1.mb4).
# 3. E90 on splitk_mma_l2 (o M 1..32): the same check and A/B for the plan's three o configs with
#    lp1 (no integer division, W addresses formed once), at o M 1 / 8 / 16 / 32.
# Usage: tools/experiments/call1_s28.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== GPU suite ($(date +%T))"
timeout 200 "$BIN/projkit_gpu_tests" >"$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$O/gpu-tests.txt" | tr '\n' ' ')"
grep -E "^\[ +(OK|FAILED) +\] RouterLayouts|FAILED" "$O/gpu-tests.txt" | head -8
G=gemv_stream
tools/experiments/check_candidates.sh "$BIN" "$O/ab" '' "unpooler:1..8:$G.rows4.warps8.lp1" "qkv:1..8:$G.rows4.warps8.lp1" \
  "pooler:1..8:$G.rows2.warps8.lp1" "qkv:1..8:$G.rows2.warps8.lp1" "qkv:1..1:$G.rows2.warps8.eq1.mb4.lp1" \
  "pooler:1..1:$G.rows2.warps8.eq1.mb4.lp1" "o:1..32:splitk_mma_l2.rows64.split1.lp1" \
  "o:1..32:splitk_mma_l2.rows64.split1.wk2.lp1" "o:1..32:splitk_mma_l2.rows64.split1.stages8.lp1"
echo "== E90 A/B ($(date +%T))"
CASES="unpooler:1:$G.rows4.warps8,$G.rows4.warps8.lp1 unpooler:2:$G.rows4.warps8,$G.rows4.warps8.lp1"
CASES="$CASES pooler:1:$G.rows2.warps8,$G.rows2.warps8.lp1 qkv:1:$G.rows2.warps8.eq1.mb4,$G.rows2.warps8.eq1.mb4.lp1"
L=splitk_mma_l2.rows64.split1
CASES="$CASES o:1:$L,$L.lp1 o:8:$L,$L.lp1 o:16:$L.wk2,$L.wk2.lp1 o:32:$L.stages8,$L.stages8.lp1"
CASES=$CASES PAIRS=200 TAG=e90 timeout 300 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e90.txt"
echo "done ($SECONDS s)"
