#!/usr/bin/env bash
# Session 35, call 3: P39, where the router ring's adds wait (information; no plan change can follow).
# P35 (session 34) put every ring CTA's adds issued at 7.3-7.7 us at router M 128, 1.1-1.6 us after its
# zero-warp hand-off, where P37's probe issues the same 4 red.v4 per thread in ~0.2 us. Light stamps
# (a PROJKIT_WGMMA_STAMPS + PROJKIT_STAMPS_LIGHT build of this tree; production kernels byte-identical)
# of the plan's lf1.ls1 at router M 96 / 128 / 192 / 256 with the new slot 15: thread 0 right after
# issuing its first red (call3_s33.sh's table, first_red column). If first_red sits next to zero_ok,
# the later reds wait (the memory pipe); if it sits next to adds, the first one already does.
# Usage: tools/experiments/call3_s35.sh STAMPS_BIN OUT_DIR   (~40 s)
set -u
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1
P33_CASES="96:$R 128:$R 192:$R 256:$R" P33_LABEL="P39: ring stamps with the first-red slot" \
  exec tools/experiments/call3_s33.sh "$@"
