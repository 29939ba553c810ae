"""The last table of a call that compares a plan tuned with a clean L2 ("serving") against the
shipped plan (session 50's call4_s50.sh, E113; session 51's call1_s51.sh, E114).

Usage: flush_plans_summary.py OUT TITLE
  OUT/sweep-read-{shipped,serving}.json  `projkit bench --m-sweep 1..256 --flush read` (either may be
                                         missing): per family the M below 1.00 / 0.98, the lowest;
  OUT/b/<i>-<flush>-<plan>.json          default-workload benches: per flush the cases whose method
                                         differs between the plans (mean ratio over processes), the scores.
"""
import glob, json, os, statistics as st, sys
O, TITLE = sys.argv[1], sys.argv[2]
fams = ["qkv", "o", "pooler", "unpooler", "router"]
print(f"{TITLE}: read flush, M 1..256, 60 pairs per M: M below 1.00 / below 0.98 (lowest ratio, at M)")
sw = {}
for p in ("shipped", "serving"):
    f = os.path.join(O, f"sweep-read-{p}.json")
    if os.path.exists(f):
        sw[p] = json.load(open(f))
for fam in fams:
    row = []
    for p in ("shipped", "serving"):
        if p not in sw:
            row.append(f"{p}: missing"); continue
        cs = [c for c in sw[p]["cases"] if c["family"] == fam]
        lo = min(cs, key=lambda c: c["ratio"])
        low = sorted(c["m"] for c in cs if c["ratio"] < 0.98)
        row.append(f"{p}: {sum(c['ratio'] < 1 for c in cs):3d} / {len(low):3d} ({lo['ratio']:.3f} at {lo['m']})"
                   + (f" <0.98 at {low[:12]}" if p == "serving" and low else ""))
    print(f"{fam:9s} " + "   ".join(row))
for p in sw:
    print(f"sweep score ({p}, read flush, the loads' M of the sweep): {sw[p].get('score', float('nan')):.4f}")
runs = {}
for f in sorted(glob.glob(os.path.join(O, "b", "*.json"))):
    _, fl, p = os.path.basename(f)[:-5].split("-")
    runs.setdefault((fl, p), []).append(json.load(open(f)))
for fl in ("read", "write"):
    print(f"-- default workload, {fl} flush: mean ratio over its processes, 200 pairs --")
    cs = {}
    for p in ("shipped", "serving"):
        for r in runs.get((fl, p), []):
            for c in r["cases"]:
                cs.setdefault((c["family"], c["m"], p), []).append(c)
    for fam in fams:
        for m in sorted({k[1] for k in cs if k[0] == fam}):
            a, b = cs.get((fam, m, "shipped")), cs.get((fam, m, "serving"))
            if not a or not b:
                continue
            if a[0]["method"] != b[0]["method"]:
                print(f"  {fam:9s} {m:4d} shipped {st.mean(c['ratio'] for c in a):.3f}  serving "
                      f"{st.mean(c['ratio'] for c in b):.3f}  {b[0]['method']}  (shipped: {a[0]['method']})")
    for p in ("shipped", "serving"):
        s = [r["score"] for r in runs.get((fl, p), [])]
        if s:
            print(f"score {fl} flush, {p} plan: " + " / ".join(f"{v:.4f}" for v in s) + f" (mean {st.mean(s):.4f})")
