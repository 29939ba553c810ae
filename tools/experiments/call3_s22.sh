#!/usr/bin/env bash
# Session 22, call 3: P20's counters (tools/experiments/p20_o_token_tile.cases under p1_ncu_gaps.sh:
# ncu on the first splitk_mma_l2 launch of `projkit check` for o at M 1 / 8 / 9 / 16 / 32, caches
# flushed, clocks left alone), then the same-binary bench of those cases (ab_configs.sh, 200 pairs)
# so the ncu durations sit beside the judge-protocol times. A diagnostic: no plan rule.
# Usage: tools/experiments/call3_s22.sh BIN OUT_DIR   (~2-3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/p20"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
L=splitk_mma_l2.rows64.split1
CASES_FILE=tools/experiments/p20_o_token_tile.cases \
EXTRA_METRICS=smsp__cycles_active.avg,sm__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio \
  timeout 400 tools/experiments/p1_ncu_gaps.sh "$BIN" "$O/p20" | tee "$O/p20-ncu-table.txt"
CASES="o:1:$L o:8:$L o:9:$L o:16:$L o:32:$L.stages8" TAG=p20b timeout 60 tools/experiments/ab_configs.sh "$BIN" "$O/p20" | tail -6
tar cJf "$O/p20.tar.xz" -C "$O" p20 && rm -rf "$O/p20"
