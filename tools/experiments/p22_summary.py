#!/usr/bin/env python3
"""P22 (session 23): a short table from the raw ncu pages (p1_ncu_gaps.sh with RAW=1): per case the
kernel, its time, SM clock, elapsed / active cycles, tensor-pipe activity, shared-memory and L1 /
L2 / DRAM throughput, issue activity. Metrics missing from a report print as '-'.
Usage: p22_summary.py DIR"""
import csv, glob, os, sys

# (column, candidate raw metric names; the first one present is printed)
COLS = [
    ('us', ['gpu__time_duration.sum']),
    ('GHz', ['smsp__cycles_elapsed.avg.per_second', 'sm__cycles_elapsed.avg.per_second']),
    ('elapsed cyc', ['sm__cycles_elapsed.avg', 'sm__cycles_elapsed.max']),
    ('SM active cyc', ['sm__cycles_active.avg']),
    ('tensor %act', ['sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active',
                     'sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active',
                     'sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active']),
    ('hmma %act', ['sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active']),
    ('smem %', ['l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed',
                'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed']),
    ('L1 %', ['l1tex__throughput.avg.pct_of_peak_sustained_elapsed']),
    ('L2 %', ['lts__throughput.avg.pct_of_peak_sustained_elapsed']),
    ('DRAM %', ['gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed',
                'dram__throughput.avg.pct_of_peak_sustained_elapsed']),
    ('issue %', ['sm__inst_issued.avg.pct_of_peak_sustained_active',
                 'smsp__issue_active.avg.pct_of_peak_sustained_active']),
    ('grid', ['launch__grid_size']),
    ('regs', ['launch__registers_per_thread']),
]


def load(path):
    rows = list(csv.reader(open(path)))
    if len(rows) < 3:
        return None
    head, data = rows[0], rows[2]  # row 1 holds the units
    return dict(zip(head, data))


def main(d):
    print('case | kernel | ' + ' | '.join(c for c, _ in COLS))
    for f in sorted(glob.glob(os.path.join(d, '*.raw'))):
        v = load(f)
        name = os.path.basename(f)[:-4]
        if v is None:
            print(name, '| (empty report)')
            continue
        cells = []
        for _, cands in COLS:
            cell = '-'
            for c in cands:
                if c in v and v[c] not in ('', 'n/a'):
                    cell = v[c].replace(',', '')
                    break
            cells.append(cell)
        kern = v.get('Kernel Name', v.get('Function Name', '?'))[:40]
        print(name, '|', kern, '|', ' | '.join(cells))
    # every tensor / shared-memory metric name present, so a missed column can be found by hand
    for f in sorted(glob.glob(os.path.join(d, '*.raw')))[:1]:
        v = load(f) or {}
        print('tensor / shared metric names in', os.path.basename(f) + ':')
        for k in sorted(v):
            if 'tensor' in k or 'mem_shared' in k or 'gmma' in k:
                print('  ', k, '=', v[k])


if __name__ == '__main__':
    main(sys.argv[1])
