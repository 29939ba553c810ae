#!/usr/bin/env bash
# Session 51, call 2 (P45 on the card it gets; meant for an H200, where it has never run): the shipped
# plan's default workload, 200 pairs, with a read flush (a clean L2) and the judge's write flush, in
# the order read / write / write / read. A table last: each flush's scores and the cases below 1.00.
# (Its first form also held a lean E114 for the H100; calls 3-4 did that, so it was removed unrun.)
# Usage: tools/experiments/call2_s51.sh BIN OUT   (BIN holds projkit; ~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/b"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
source tools/experiments/red5_ab_lib.sh
device_plan "$O" >/dev/null || exit 3  # device.txt; a card with no plan file stops here
i=0
for fl in read write write read; do
  i=$((i + 1))
  timeout 60 "$BIN/projkit" bench --pairs 200 --flush $fl --json "$O/bench-$i-$fl.json" >"$O/b/bench-$i-$fl.txt" 2>&1
  echo "bench $i ($fl) rc=$? ($SECONDS s)"
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, json, os, statistics as st, sys
O = sys.argv[1]
runs = {}
for f in sorted(glob.glob(os.path.join(O, "bench-*.json"))):
    runs.setdefault(os.path.basename(f)[:-5].split("-")[2], []).append(json.load(open(f)))
for fl, rs in sorted(runs.items()):
    print(f"P45 ({fl} flush): score " + " / ".join(f"{r['score']:.4f}" for r in rs))
    cs = {}
    for r in rs:
        for c in r["cases"]:
            cs.setdefault((c["family"], c["m"]), []).append(c["ratio"])
    print("  below 1.00: " + ", ".join(f"{f} {m} {st.mean(v):.3f}" for (f, m), v in sorted(cs.items()) if st.mean(v) < 1.0))
PY
tar cJf "$O/logs.tar.xz" -C "$O" b && rm -rf "$O/b"
echo "done ($SECONDS s)"
