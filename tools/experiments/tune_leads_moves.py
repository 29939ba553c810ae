#!/usr/bin/env python3
"""Session 38: a tune's leads at unscored M -> a plan's moves, by a rule fixed before the device call.

Session 36 (calls 4 and 5) turned the leads of `projkit tune` at unscored M into moves by hand, then
judged them with plan_h100_leads.py's rule in a second call. Every device start is scarce (sessions
37 and 38: most starts failed), so this rule lets one call do both: tune, moves, judgement.

A lead (rescreen_summary.lead_rows): the best other config beats the incumbent at M by >= LEAD % in
both paired ratio and time. Each lead at an unscored M is placed on the plan range that holds M (for
the baseline: the longest run of baseline M around it), cut so that it holds no scored load (M 1, 8,
16, 32, 128, 256 are left to A/B calls of their own). Where several leads fall in one such range, the
config that leads at the most M wins, then the one with the larger summed ratio gain. Leads at a
scored M are listed and skipped.

    python3 tools/experiments/tune_leads_moves.py TUNE_LOG PLAN OUT_MOVES [--lead 1.0]

OUT_MOVES is plan_h100_leads.py's --moves-file format: [[family, lo, hi, method, why], ...] (an empty
list when there is no lead).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plan_h100_leads import method_at  # noqa: E402
from rescreen_summary import lead_rows  # noqa: E402

SCORED = (1, 8, 16, 32, 128, 256)
MAX_M = 256


def range_around(plan, fam, m):
    """The run of M around m that the plan gives m's method (baseline runs included), cut to hold
    no scored load."""
    meth = method_at(plan, fam, m)
    lo = hi = m
    while lo > 1 and method_at(plan, fam, lo - 1) == meth:
        lo -= 1
    while hi < MAX_M and method_at(plan, fam, hi + 1) == meth:
        hi += 1
    below = [s for s in SCORED if s < m]
    above = [s for s in SCORED if s > m]
    if below:
        lo = max(lo, below[-1] + 1)
    if above:
        hi = min(hi, above[0] - 1)
    return lo, hi


def moves(rows, plan):
    groups = {}
    for fam, m, inc, _, best, g_ratio, g_time, lead in rows:
        if not lead:
            continue
        if m in SCORED:
            print(f"{fam:9s} M {m:3d}: lead {best['config']} skipped (a scored load)")
            continue
        lo, hi = range_around(plan, fam, m)
        groups.setdefault((fam, lo, hi), []).append((m, best["config"], g_ratio, g_time))
    out = []
    for (fam, lo, hi), leads in sorted(groups.items()):
        by_cfg = {}
        for m, cfg, g_r, g_t in leads:
            by_cfg.setdefault(cfg, []).append((m, g_r, g_t))
        cfg, ms = max(by_cfg.items(), key=lambda kv: (len(kv[1]), sum(g for _, g, _ in kv[1])))
        why = ", ".join(f"M {m} {g_r:+.1f} / {g_t:+.1f}" for m, g_r, g_t in ms)
        if method_at(plan, fam, lo) == "baseline":
            why += " against the baseline"
        out.append([fam, lo, hi, cfg, why])
        print(f"{fam:9s} M {lo:3d}..{hi:3d}: {method_at(plan, fam, lo)} -> {cfg} ({why})")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("plan")
    ap.add_argument("out")
    ap.add_argument("--lead", type=float, default=1.0)
    a = ap.parse_args()
    out = moves(lead_rows(a.log, a.lead), json.load(open(a.plan)))
    json.dump(out, open(a.out, "w"), indent=1)
    print(f"{len(out)} moves -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
