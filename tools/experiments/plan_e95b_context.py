#!/usr/bin/env python3
"""Session 30, call 4: E95b, fragment_stream_zw.kw16.wn4 at the unpooler slice's M 1..2 in a matched
context (call 1's one-method processes read gemv_stream 6-15 % ahead there, but with the baseline and
floor of the two processes apart by 7-9 %, P30). Both plans run fragment_stream_zw at M 3..8, so both
prepare the same packed rows (gemv_stream allocates nothing); they differ only at M 1..2:
  PC: unpooler M 1..2 the plan's gemv_stream, M 3..8 fragment_stream_zw.kw16.wn4 (plan Z9);
  PD: unpooler M 1..8 fragment_stream_zw.kw16.wn4.
`pair PLAN_IN OUT_DIR` writes OUT_DIR/pc.json and pd.json; `summary AB_DIR` prints PD against PC per
M from AB_DIR/ctx-{PC1,PD1,PD2,PC2}.json (mean paired ratio and mean time). Information only: no
plan is written (the session's device time has no room for a plan A/B and results)."""
import copy, json, os, sys

from plan_rule import matched_plans, set_range, write_plan

NEW = 'fragment_stream_zw.kw16.wn4'


def pair(plan_in, out_dir):
    plan = json.load(open(plan_in))
    write_plan(plan, os.path.join(out_dir, 'pc.json'))
    p = copy.deepcopy(plan)
    set_range(p, 'unpooler', 1, 8, NEW)
    write_plan(p, os.path.join(out_dir, 'pd.json'))


def summary(ab_dir):
    matched_plans(ab_dir, 'PC', 'PD', 'E95b')


if __name__ == '__main__':
    if sys.argv[1] == 'pair':
        pair(*sys.argv[2:4])
    else:
        summary(sys.argv[2])
