#!/usr/bin/env bash
# Session 51, call 4 (E114, on the warm H100 after call3_s51.sh, 117 s of budget left): the tune of o at
# M 33..64 with a clean L2 that call1_s51 / call2_s51 could not run, on top of the shipped serving plan
# (`--plan serving`), then the read-flush sweep of o M 33..64 with the plan it wrote. The device call
# ran these lines inline (OUT = $OUT/c4); this file holds them as they ran.
# Usage: tools/experiments/call4_s51.sh BIN OUT   (BIN holds projkit of the plan-set tree; ~25 s)
BIN=${1:?}; OUT=${2:?}; mkdir -p "$OUT"
(timeout 75 "$BIN/projkit" tune --flush read --families o --m 33..64 --kernels splitk_mma_l2,wgmma_tma --top 3 \
   --screen-pairs 20 --pairs 100 --plan serving --out "$OUT/plan-o33.json" --log "$OUT/tune-o33.jsonl" > "$OUT/tune.txt" 2>&1
 echo "tune rc=$? ($SECONDS s)"; tail -12 "$OUT/tune.txt"
 [ -f "$OUT/plan-o33.json" ] && timeout 25 "$BIN/projkit" bench --m-sweep 33..64 --families o --pairs 60 --flush read \
   --plan "$OUT/plan-o33.json" --json "$OUT/sweep-o33.json" > "$OUT/sweep.txt" 2>&1
 echo "sweep rc=$? ($SECONDS s)"; xz -T0 "$OUT"/*.json*) 2>&1 | tail -20
