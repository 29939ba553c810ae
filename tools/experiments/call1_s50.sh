#!/usr/bin/env bash
# Session 50, call 1 (ledger P45): the default workload's score with a clean L2 (read flush) next to
# the judge's dirty L2 (write flush). P44 (sessions 49/50) found that a read flush shortens both
# sides, the baseline much more (pooler M 16 / 128, qkv M 256: -8..-10 us against ours -3..-4 us;
# o M 128 -2.5 against -1.7 us), so part of the measured speedup is how the two sides pay for the
# write-back of the flush's dirty lines. A serving process rarely starts a projection with the L2
# full of dirty lines, so users should see both numbers. Four bench processes of the shipped plan,
# 200 pairs each, in the order write, read, read, write (drift cancels in the means); each bench
# times its own read floor under its own flush. A table last: per case the mean ratio and ours over
# the floor under each flush, and the two scores.
# Usage: tools/experiments/call1_s50.sh BIN OUT   (BIN holds projkit; ~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv
  "$BIN/projkit" info 2>&1 | head -4
} >"$O/device.txt" 2>&1
cat "$O/device.txt"
i=0
for fl in write read read write; do
  i=$((i + 1))
  timeout 150 "$BIN/projkit" bench --pairs 200 --flush "$fl" --json "$O/bench-$i-$fl.json" >"$O/bench-$i-$fl.txt" 2>&1
  echo "bench $i ($fl) rc=$? ($SECONDS s)"
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, json, math, os, statistics as st, sys
O = sys.argv[1]
runs = {"write": [], "read": []}
for p in sorted(glob.glob(os.path.join(O, "bench-*.json"))):
    runs[os.path.basename(p)[:-5].split("-")[2]].append(json.load(open(p)))
if not runs["write"] or not runs["read"]:
    sys.exit("missing bench reports")
def per_case(rs):
    out = {}
    for r in rs:
        for c in r["cases"]:
            out.setdefault((c["family"], c["m"]), []).append(c)
    return out
w, r = per_case(runs["write"]), per_case(runs["read"])
print("P45: mean over each flush's bench processes (%d write, %d read), 200 pairs each; ratio = baseline / projkit"
      % (len(runs["write"]), len(runs["read"])))
print(f"{'family':9s} {'M':>4s} | {'write base':>10s} {'ours':>6s} {'ratio':>6s} {'/floor':>6s} | {'read base':>9s} {'ours':>6s} {'ratio':>6s} {'/floor':>6s}")
for key in sorted(w, key=lambda k: (["qkv", "o", "pooler", "unpooler", "router"].index(k[0]), k[1])):
    row = []
    for side in (w[key], r.get(key, [])):
        if not side:
            row.append("    (none)"); continue
        b = st.mean(c["base_us"] for c in side); c_ = st.mean(c["cand_us"] for c in side)
        q = st.mean(c["ratio"] for c in side); f = st.mean(c["floor_us"] for c in side)
        row.append(f"{b:10.2f} {c_:6.2f} {q:6.3f} {c_ / f:6.3f}")
    print(f"{key[0]:9s} {key[1]:4d} | {row[0]} | {row[1]}")
for fl in ("write", "read"):
    s = [x["score"] for x in runs[fl]]
    print(f"score ({fl} flush): " + " / ".join(f"{v:.4f}" for v in s) + f"  (mean {st.mean(s):.4f}); overhead us: "
          + " / ".join(f"{x['overhead_us']:.2f}" for x in runs[fl]))
PY
echo "done ($SECONDS s)"
