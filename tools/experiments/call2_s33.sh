#!/usr/bin/env bash
# Session 33, call 2, on the tree after E100's removal and the ring's shared tile copy (host only):
# E101b, wmc1.lf1 on the router ring's three short ranges call 1 left on wmc1 (rule
# plan_z11b_from_e101b.py, fixed before the call). Correctness first: the router suites (every
# ring config, RouterLayouts.RingConfigsShareOnePackedCopy included) and `projkit check` of lf1 over
# router M 65..256. If the plan moves: three plan A/B rounds with session 22's verdict (no scored case
# changes: the mean score's >= -0.3 %) and, if it ships, plan Z11b's results (RESULTS=1). If nothing
# ships: the whole GPU suite + memcheck and `projkit check` of plan Z11 on this binary
# (device_results.sh "tests check").
# Usage: tools/experiments/call2_s33.sh BIN OUT_DIR   (~1.5 min + 1.5 min, or ~6 min if the plan ships)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
RING=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1
tools/experiments/check_candidates.sh "$BIN" "$O/ab" 'Router/RouterFamily.*/2:RouterLayouts.*' "router:65..256:$RING.lf1"
RESULTS=1 LEFT_S=560 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e101b plan_z11b_from_e101b.py Z11b 120
if [ "$(cat "$O/ship.txt" 2>/dev/null)" != 1 ]; then
  echo "== plan Z11 on this binary: GPU tests + memcheck, check ($(date +%T))"
  timeout 420 tools/device_results.sh "$BIN" "$O/final" "tests check" >"$O/final.txt" 2>&1; echo "final rc=$?"
  tail -12 "$O/final.txt"
fi
echo "done ($SECONDS s)"
