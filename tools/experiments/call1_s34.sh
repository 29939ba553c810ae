#!/usr/bin/env bash
# Session 34, call 1: E102 (router_hilo_ring wmc1.lf1 with a lean start, ls1) and E102b (the
# wgmma_tma W pairs, wmc1 / wmc1.xsh1, with E85's lean start, ls1).
# 1. P34: light stamps of lf1 and lf1.ls1 at router M 128 / 256 (a PROJKIT_WGMMA_STAMPS +
#    PROJKIT_STAMPS_LIGHT build of this tree in SBIN; call3_s33.sh's table: thread 0's index math,
#    mbarriers, first k-block issued, each warpgroup's first stage, the loop end, the adds).
# 2. Correctness: the router ring suite (every ring config), the red5 suites (every red5 config at
#    15 M per family), the split-K stream suite of wgmma_tma red5, RouterLayouts; `projkit check
#    --method` of each candidate over the ranges it is measured on.
# 3. The same-binary A/B (200 pairs) of plan_z12_from_e102.py's 35 cases, its rule (fixed before the
#    call), and if the plan moved, three plan A/B rounds with session 22's verdict (RESULTS=0: a
#    shipped plan's results are the next call's).
# Usage: tools/experiments/call1_s34.sh BIN STAMPS_BIN OUT_DIR   (~7 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1
W=wgmma_tma.bn128
P33_CASES="128:$R 128:$R.ls1 256:$R 256:$R.ls1" P33_LABEL="P34: ring stamps, lf1 and lf1.ls1" \
  tools/experiments/call3_s33.sh "$SBIN" "$O/p34" | tail -8
tools/experiments/check_candidates.sh "$BIN" "$O/ab" \
  'Router/RouterFamily.*/2:Dense/WgmmaTmaRed5.*:Dense/SplitkStream.*/2:RouterLayouts.*' \
  "router:65..256:$R.ls1" \
  "qkv:84..128:$W.bm64.split3.mc1.stages8.xfit1.red5.rk1.ki1.wmc1.ls1" \
  "o:72..128:$W.bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1.ls1" \
  "unpooler:88..128:$W.bm64.split1.mc1.stages8.xfit1.red5.rk1.ki1.wmc1.ls1" \
  "unpooler:193..223:$W.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.xsh1.ls1" \
  "unpooler:224..256:$W.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.ls1" \
  "pooler:256..256:$W.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.ls1"
RESULTS=0 tools/experiments/ab_rule_ship.sh "$BIN" "$O" e102 plan_z12_from_e102.py Z12 260
echo "done ($SECONDS s)"
