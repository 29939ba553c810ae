#!/usr/bin/env bash
# Session 22, call 5: P21, P20's ncu counters over plan Z's small-M methods farthest from their
# floors (tools/experiments/p21_plan_survey.cases under p1_ncu_gaps.sh: the first launch of the
# method's kernel in `projkit check`, caches flushed, clocks left alone). A diagnostic for the next
# session: no plan rule. Per case the table gives SM active cycles, instructions, stalls per
# instruction, and warps / issue activity per scheduler.
# Usage: tools/experiments/call5_s22.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/p21"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
CASES_FILE=tools/experiments/p21_plan_survey.cases \
EXTRA_METRICS=smsp__cycles_active.avg,sm__inst_executed.sum,smsp__warps_active.avg.per_cycle_active,smsp__issue_active.avg.per_cycle_active,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio \
  timeout 500 tools/experiments/p1_ncu_gaps.sh "$BIN" "$O/p21" | tee "$O/p21-ncu-table.txt"
rm -f "$O"/p21/*.ncu-rep  # the CSVs keep every metric of the report's pages
tar cJf "$O/p21.tar.xz" -C "$O" p21 && rm -rf "$O/p21"
