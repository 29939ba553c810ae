#!/usr/bin/env bash
# Session 34, call 7: P35, what holds the ring's multicast fill (information; no plan change can follow).
# Light stamps (a PROJKIT_WGMMA_STAMPS + PROJKIT_STAMPS_LIGHT build of this tree; production kernels
# byte-identical) of the plan's lf1.ls1 and of lf1 at router M 128 / 256, with the new slot 14: thread 0
# past the pair's cluster wait, between its first k-block issued and the multicast rest of the fill
# issued (call3_s33.sh's table; its cluster_ok column).
# Usage: tools/experiments/call7_s34.sh STAMPS_BIN OUT_DIR   (~40 s)
set -u
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1
P33_CASES="128:$R 128:$R.ls1 256:$R 256:$R.ls1" P33_LABEL="P35: ring stamps with the cluster-wait slot" \
  exec tools/experiments/call3_s33.sh "$@"
