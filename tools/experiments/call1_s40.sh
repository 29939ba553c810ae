#!/usr/bin/env bash
# Session 40, call 1 (ran on an H100: results/h100/session40/c1-e108; E108 refuted and removed after
# session 40's call 7, code in cd121d9; the xl4 / xl5 configs this script names no longer exist): E108 (router_hilo_stream kw8.wn2.zw1 with x by TMA boxes: xl4; and multicast
# over the two row blocks of a K split: xl5).
# 1. Correctness: the router GPU suites (every router config, the two new ones at M <= 32: fp64
#    reference, NaN / Inf, graph replay twice, two Projections on two streams), then
#    `projkit check --method` of each candidate over router M 1..32.
# 2. The same-binary A/B (200 pairs) of plan_z17_from_e108.py's 6 cases, its rule (fixed before the
#    call), and if the plan moved, three plan A/B rounds with session 22's verdict (RESULTS=0: a
#    shipped plan's results are the next call's). On another chip than the H200: the A/B only.
# Usage: tools/experiments/call1_s40.sh BIN OUT_DIR   (~3 min, ~7 if the plan moves)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$O/device.txt"
S=router_hilo_stream.kw8.wn2.zw1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily.*:RouterLayouts.*' \
  "router:1..32:$S.xl4" "router:1..32:$S.xl5"
if grep -q H200 "$O/device.txt"; then
  RESULTS=0 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e108 plan_z17_from_e108.py Z17 200
else  # another chip: the A/B alone (the rule and its plan A/B judge plans/h200.json)
  CASES=$(cd tools/experiments && python3 plan_z17_from_e108.py --cases) PAIRS=200 TAG=e108 \
    timeout 200 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
  cat "$O/ab/summary-e108.txt"
fi
echo "done ($SECONDS s)"
