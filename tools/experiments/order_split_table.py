#!/usr/bin/env python3
"""Each side's median by its place in the pair, from `projkit bench` JSONs (ledger P40).

The judge's protocol replays baseline and candidate back to back, baseline first on even
pairs and candidate first on odd ones, so that whatever the first replay leaves to the second
cancels in the ratio. bench writes each side's median split by that place ("order" per case,
since session 39); this prints it per file and case:

  file  family  M  method  base 1st / 2nd (2nd vs 1st)  cand 1st / 2nd (2nd vs 1st)  floor

Usage: order_split_table.py BENCH_JSON [BENCH_JSON ...]
A JSON written before the split existed has no "order": its cases print as such.
"""
import json
import os
import sys


def pct(second, first):
    if second is None or first is None or first <= 0:
        return "   n/a"
    return f"{100.0 * (second / first - 1.0):+5.1f}%"


def fmt(us):
    return "  n/a" if us is None else f"{us:5.2f}"


def rows(path):
    with open(path) as f:
        report = json.load(f)
    for c in report["cases"]:
        o = c.get("order")
        name = os.path.basename(path)
        meth = c["method"] if len(c["method"]) <= 48 else c["method"][:14] + ".." + c["method"][-32:]
        head = f"{name:28s} {c['family']:9s} {c['m']:4d} {meth:48s}"
        if o is None:
            yield head + "  (no order split in this file)"
            continue
        b1, b2 = o.get("base_first_us"), o.get("base_second_us")
        c1, c2 = o.get("cand_first_us"), o.get("cand_second_us")
        yield (f"{head}  base {fmt(b1)} / {fmt(b2)} ({pct(b2, b1)})  cand {fmt(c1)} / {fmt(c2)} ({pct(c2, c1)})"
               f"  floor {c['floor_us']:5.2f}")


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print(f"{'file':28s} {'family':9s} {'M':>4s} {'method':48s}  base 1st / 2nd (2nd vs 1st)  "
          f"cand 1st / 2nd (2nd vs 1st)  floor (us)")
    for path in argv[1:]:
        for line in rows(path):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
