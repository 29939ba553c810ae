#!/usr/bin/env bash
# E76 (prepared in session 21, not run): the router's K split count at M 4..32. E73 / E75 moved
# M 4..32 from kw4.wn2.zw1 (32 splits) to kw8.wn2.zw1 (16 splits, +1.1..+3.9 %); kw8.wn1.zw1 (16 rows
# x 1024 K per block, 128 blocks, 8 splits, listed since router round 3) halves the partials per
# output again. Same-binary A/B (ab_configs.sh, 200 pairs), plan X's config first, at M 4 / 8 / 16 /
# 24 / 32. Rule, fixed here before the run: kw8.wn1.zw1 takes the M range [lo, hi] of the scored
# M it gains >= +1 % at (min of ratio and time gains, plan_rule.gain), widened to the neighbouring
# measured M where it gains >= 0; otherwise the plan stays.
# Usage: tools/experiments/e76_router_splits.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/e76"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R8=router_hilo_stream.kw8.wn2.zw1 R1=router_hilo_stream.kw8.wn1.zw1
timeout 120 "$BIN/projkit" check --method "$R1" --families router --m 1..64 >"$O/e76/check-$R1.txt" 2>&1
echo "check $R1 rc=$? | $(tail -1 "$O/e76/check-$R1.txt")"
CASES="router:4:$R8,$R1 router:8:$R8,$R1 router:16:$R8,$R1 router:24:$R8,$R1 router:32:$R8,$R1" TAG=e76 \
  timeout 150 tools/experiments/ab_configs.sh "$BIN" "$O/e76" >/dev/null
tar cJf "$O/e76.tar.xz" -C "$O" e76
cat "$O/e76/summary-e76.txt"
