#!/usr/bin/env bash
# The staged tune that produced the shipped plan's recipe (ledger: "The tunes of runs H and H2"):
#   stage 1  M 1..32, every family, no cublaslt (it never won below M = 36 and its prepare
#            makes heuristic queries per M);
#   stage 2  M 33..256, qkv / pooler / unpooler / router, with cublaslt;
#   stage 3  M 33..256, o without cublaslt (its picks there sat at sweep noise, run F / G).
# Each stage resumes the previous stage's log, so OUT/tune.jsonl holds every measurement and
# OUT/<plan>.json is a pure function of it. Every incumbent is the baseline (--plan safe).
# Usage: tools/tune_staged.sh PROJKIT_BIN OUT_DIR [extra tune arguments, e.g. --pairs 100]
# Writes OUT/tune-stage1.jsonl, OUT/tune-stage2.jsonl, OUT/tune.jsonl, OUT/plan.json and the
# progress lines of each stage in OUT/tune-stage{1,2,3}.err.
set -euo pipefail
BIN=${1:?usage: tune_staged.sh PROJKIT_BIN OUT_DIR [tune args]}
OUT=${2:?usage: tune_staged.sh PROJKIT_BIN OUT_DIR [tune args]}
shift 2
mkdir -p "$OUT"
dense_small=gemv_stream,splitk_mma_cluster,splitk_mma_l2,wgmma_tma
router=router_hilo_stream,router_hilo_wgmma,router_hilo_ring
"$BIN" tune --plan safe --m 1..32 --kernels "$dense_small,$router,router_gemv_f32" \
  --log "$OUT/tune-stage1.jsonl" --out "$OUT/plan-stage1.json" "$@" 2>"$OUT/tune-stage1.err"
"$BIN" tune --plan safe --m 33..256 --families qkv,pooler,unpooler,router \
  --kernels "splitk_mma_cluster,splitk_mma_l2,wgmma_tma,cublaslt,$router" \
  --resume "$OUT/tune-stage1.jsonl" --log "$OUT/tune-stage2.jsonl" --out "$OUT/plan-stage2.json" "$@" \
  2>"$OUT/tune-stage2.err"
"$BIN" tune --plan safe --m 33..256 --families o --kernels splitk_mma_cluster,splitk_mma_l2,wgmma_tma \
  --resume "$OUT/tune-stage2.jsonl" --log "$OUT/tune.jsonl" --out "$OUT/plan.json" "$@" 2>"$OUT/tune-stage3.err"
