#!/usr/bin/env bash
# Session 50, call 4 (ledger E113, with P46): a serving plan for the card this call gets: the shipped
# plan with o, pooler and unpooler at M 65..256 re-decided by `projkit tune --flush read` (a clean
# L2). E112 tuned only the six scored M; P45 / E112 put the clean-L2 losses of the shipped plan at M
# 128 / 256 of those three families (H100), where the write flush's ranking differs. Below M 65 and
# for qkv and the router the shipped plan already wins with a clean L2 at the scored M (P45).
# Steps: (1) the tune (wgmma_tma and the baseline; the shipped plan as incumbent and for every other
# (family, M)); (2) `projkit bench --m-sweep 1..256 --flush read` of the shipped plan (P46) and of the
# serving plan, 60 pairs per M; (3) the default workload, 200 pairs, per flush: shipped, serving,
# serving, shipped. A table last: per family the M below 1.00 / 0.98 with a clean L2, both plans;
# the scores under both flushes.
# Predicted: with a clean L2 the serving plan has no scored case below 1.00 and no M below 0.98
# (the shipped plan: o, pooler and unpooler at M ~128..256), and a read-flush score >= the shipped
# plan's + 1 %; under the write flush it gives up ~2 % (E112).
# Usage: tools/experiments/call4_s50.sh BIN OUT   (BIN holds projkit; ~6-8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/b"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv
  "$BIN/projkit" info 2>&1 | head -4
} >"$O/device.txt" 2>&1
cat "$O/device.txt"
SHIPPED=plans/$("$BIN/projkit" info 2>/dev/null | sed -n 's/^plan file for this device: \([^ ]*\).*/\1/p')
[ -f "$SHIPPED" ] || { echo "no shipped plan for this device ($SHIPPED)"; exit 3; }
SERVING=$O/plan-serving.json
timeout 300 "$BIN/projkit" tune --flush read --families o,pooler,unpooler --m 65..256 --kernels wgmma_tma \
  --top 3 --screen-pairs 20 --pairs 100 --plan "$SHIPPED" --out "$SERVING" --log "$O/tune-serving.jsonl" \
  >"$O/tune.txt" 2>&1
echo "tune rc=$? ($SECONDS s)"
[ -f "$SERVING" ] || { tail -5 "$O/tune.txt"; exit 4; }
for p in shipped serving; do
  f=$SHIPPED; [ $p = serving ] && f=$SERVING
  timeout 150 "$BIN/projkit" bench --m-sweep 1..256 --pairs 60 --flush read --plan "$f" \
    --json "$O/sweep-read-$p.json" >"$O/b/sweep-read-$p.txt" 2>&1
  echo "sweep ($p) rc=$? ($SECONDS s)"
done
i=0
for fl in read write; do
  for p in shipped serving serving shipped; do
    i=$((i + 1)); f=$SHIPPED; [ $p = serving ] && f=$SERVING
    timeout 100 "$BIN/projkit" bench --pairs 200 --flush $fl --plan "$f" --json "$O/b/$i-$fl-$p.json" >"$O/b/$i-$fl-$p.txt" 2>&1
    echo "bench $i ($fl, $p) rc=$? ($SECONDS s)"
  done
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, json, os, statistics as st, sys
O = sys.argv[1]
fams = ["qkv", "o", "pooler", "unpooler", "router"]
print("E113 / P46: read flush, M 1..256, 60 pairs per M: M below 1.00 / below 0.98 (lowest ratio, at M)")
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
        row.append(f"{p}: {sum(c['ratio'] < 1 for c in cs):3d} / {sum(c['ratio'] < 0.98 for c in cs):3d} "
                   f"({lo['ratio']:.3f} at {lo['m']})")
    print(f"{fam:9s} " + "   ".join(row))
for p in sw:
    print(f"sweep score ({p}, read flush, the loads' M of the sweep): {sw[p].get('score', float('nan')):.4f}")
runs = {}
for f in sorted(glob.glob(os.path.join(O, "b", "*.json"))):
    _, fl, p = os.path.basename(f)[:-5].split("-")
    runs.setdefault((fl, p), []).append(json.load(open(f)))
for fl in ("read", "write"):
    print(f"-- default workload, {fl} flush: mean ratio over two processes, 200 pairs --")
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
PY
tar cJf "$O/benches.tar.xz" -C "$O" b && rm -rf "$O/b"
xz "$O"/sweep-read-*.json
echo "done ($SECONDS s)"
