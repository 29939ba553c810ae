#!/usr/bin/env python3
"""Session 30, call 2: E95's context-matched A/B and rule (fixed before the call).
Call 1's same-binary A/B (one method per process) read fragment_stream_zw.kw16.wn4 at the unpooler
slice M 3..8 at +10.8..+13.3 % paired ratio against kperm_splitk_zw.wr4.wk2.u8 but only -1..+4 % in
time: in the processes that prepared a fragment_stream_zw method the baseline read 7.2-7.6 us
against 6.7-6.9 and the floor 3.7-4.2 against 3.5-3.8, so each process's own baseline does not
compare the two. Here both plans prepare both methods (the same allocations) and differ only in
which one runs at M 3..8:
  PA: unpooler M 1 fragment_stream_zw.kw16.wn4, M 2 the plan's gemv, M 3..8 kperm_splitk_zw;
  PB: unpooler M 1 kperm_splitk_zw, M 2 the plan's gemv, M 3..8 fragment_stream_zw.kw16.wn4.
`pair PLAN_IN OUT_DIR` writes OUT_DIR/pa.json and pb.json. The call benches the unpooler at M 2, 3,
5, 8 under PA PB PB PA (300 pairs) into AB_DIR/ctx-{PA1,PB1,PB2,PA2}.json.
`rule AB_DIR PLAN_IN PLAN_OUT`: PB against PA per M, gain = min(mean ratio gain, mean time gain);
plan Z9 = PLAN_IN with unpooler M 3..8 on fragment_stream_zw.kw16.wn4 if the gain is >= +1 % at M 8
(scored) and >= 0 at M 3 and 5; M 2 (gemv in both) is the control."""
import copy, json, os, sys

from plan_rule import matched_plans, set_range, write_plan

INC, NEW = 'kperm_splitk_zw.wr4.wk2.u8', 'fragment_stream_zw.kw16.wn4'


def pair(plan_in, out_dir):
    plan = json.load(open(plan_in))
    gemv = next(r['method'] for r in plan['families']['unpooler'] if r['m'][0] <= 2 <= r['m'][1])
    for name, m1, m38 in (('pa', NEW, INC), ('pb', INC, NEW)):
        p = copy.deepcopy(plan)
        set_range(p, 'unpooler', 1, 1, m1)
        set_range(p, 'unpooler', 2, 2, gemv)
        set_range(p, 'unpooler', 3, 8, m38)
        write_plan(p, os.path.join(out_dir, f'{name}.json'))


def rule(ab_dir, plan_in, plan_out):
    gains = matched_plans(ab_dir, 'PA', 'PB', 'E95')
    if gains[8] >= 0.01 and gains[3] >= 0 and gains[5] >= 0:
        plan = json.load(open(plan_in))
        set_range(plan, 'unpooler', 3, 8, NEW)
        write_plan(plan, plan_out)
        print(f'plan Z9 written to {plan_out}')
    else:
        print('E95: keep the plan (M 8 under +1 % or a loss at M 3 / 5)')


if __name__ == '__main__':
    if sys.argv[1] == 'pair':
        pair(*sys.argv[2:4])
    else:
        rule(*sys.argv[1:4])
