#!/usr/bin/env python3
"""P31: read a `projkit tune` log taken at the scored loads and print, per (family, M), the plan's
method (the tune's incumbent) against the best other config of the retest: paired ratio and
candidate time of each, and the challenger's gain in both (a lead needs both >= LEAD %).

    python3 tools/experiments/rescreen_summary.py tune.jsonl[.xz] [--lead 1.0]

lead_rows() is also read by tune_leads_moves.py (session 38: leads -> a plan's moves).
"""
import argparse
import json


def cell(name, r):
    """One side of a row: config name (its last 44 characters), paired ratio, candidate us."""
    if r is None:
        return f"{name[-44:]:44s} {'-':>6s} {'-':>6s}"
    us = f"{r['cand_us']:6.2f}" if r.get("cand_us") is not None else f"{'-':>6s}"
    return f"{name[-44:]:44s} {r['ratio']:6.3f} {us}"


def open_log(path):
    """The tune's JSON-lines log, plain or xz-compressed."""
    import lzma
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def lead_rows(log, lead=1.0):
    """Per (family, M) of the log, sorted: (family, M, incumbent, its retest or None, best other
    retest or None, ratio gain %, time gain %, lead?). The gains are None where a side is missing;
    a lead needs both gains >= lead %."""
    retest, inc = {}, {}
    with open_log(log) as f:
        for line in f:
            r = json.loads(line)
            key = (r.get("family"), r.get("m"))
            if r.get("type") == "retest" and "ratio" in r:
                retest.setdefault(key, {})[r["config"]] = r
            elif r.get("type") == "decision":
                inc[key] = r["incumbent"]
    rows = []
    for key in sorted(inc, key=lambda k: (k[0], k[1])):
        fam, m = key
        rt = retest.get(key, {})
        i = inc[key]
        ir = rt.get(i)
        others = [r for c, r in rt.items() if c != i]
        best = max(others, key=lambda r: r["ratio"]) if others else None
        if i == "baseline":  # the baseline's time is the best challenger's paired base_us
            ir = {"ratio": 1.0, "cand_us": best["base_us"] if best else None}
        g_ratio = g_time = None
        if ir is not None and best is not None:
            g_ratio = (best["ratio"] / ir["ratio"] - 1) * 100
            g_time = (ir["cand_us"] / best["cand_us"] - 1) * 100
        is_lead = g_ratio is not None and g_ratio >= lead and g_time >= lead
        rows.append((fam, m, i, ir, best, g_ratio, g_time, is_lead))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("log")
    p.add_argument("--lead", type=float, default=1.0, help="gain (%%) in ratio and in time that makes a lead")
    a = p.parse_args()
    leads = 0
    print(f"{'family':9s} {'M':>4s} | {'plan method (retest)':44s} {'ratio':>6s} {'us':>6s} | "
          f"{'best other (retest)':44s} {'ratio':>6s} {'us':>6s} | gain ratio / time")
    for fam, m, i, ir, best, g_ratio, g_time, lead in lead_rows(a.log, a.lead):
        leads += lead
        gain = "" if g_ratio is None else f"{g_ratio:+5.1f} / {g_time:+5.1f} %{'  LEAD' if lead else ''}"
        print(f"{fam:9s} {m:4d} | {cell(i, ir)} | {cell(best['config'] if best else '-', best)} | {gain}")
    print(f"leads (>= {a.lead} % in ratio and time): {leads}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
