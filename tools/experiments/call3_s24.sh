#!/usr/bin/env bash
# Session 24, call 3: E83b and the ship step of plan Z3 / Z4.
# 1. `projkit check` of router_hilo_ring wmc1 over router M 65..256 (the rule's gate; call 2 ran the
#    Router GPU suite and the check over 1..256 on the same code);
# 2. the E83b A/B (ab_configs.sh, 300 pairs) on the ring ranges call 2 did not measure;
# 3. plan Z4 by plan_z4_from_e83b.py from call 2's plan Z3 (rule in its docstring); the candidate is
#    Z4 if the rule wrote it, else Z3;
# 4. plan_ab_ship.sh: three plan A/B rounds against plans/h200.json (plan Z), the verdict of session
#    22 (every changed scored case >= +0.5 %, mean score change >= -0.3 %), and if it ships, its
#    results (tools/device_results.sh) in the seconds left.
# Usage: tools/experiments/call3_s24.sh BIN OUT_DIR   (~8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
Z3=results/h200/session24/c2-e83-p24/plan-z3.json
R=router_hilo_ring.split16.wgn1.ts2.zw1
W=$R.early1.wmc1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" '' "router:65..256:$W"
echo "== E83b A/B ($(date +%T))"
CASES="router:79:$R.early1,$W router:81:$R.early1,$W router:82:$R,$W router:90:$R,$W router:98:$R,$W \
router:99:$R.early1,$W router:100:$R.early1,$W router:101:$R,$W router:105:$R,$W \
router:193:$R.early1,$W router:208:$R.early1,$W router:224:$R.early1,$W router:240:$R.early1,$W router:256:$R.early1,$W" \
  PAIRS=300 TAG=e83b KEEP_JSON=1 timeout 200 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e83b.txt"
(cd tools/experiments && python3 plan_z4_from_e83b.py "$O/ab" "../../$Z3" "$O/plan-z4.json") | tee "$O/plan-rule.txt"
rm -f "$O"/ab/b-*.json
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
P=$O/plan-z4.json; NAME=Z4
[ -f "$P" ] || { P=$Z3; NAME=Z3; }
echo "candidate plan: $NAME ($P)"
LEFT_S=$((560 - SECONDS)) tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$P" "$NAME"
echo "done ($SECONDS s)"
