#!/usr/bin/env bash
# Session 51, call 2: call1_s51.sh cut to the device time left after the session's failed starts.
#   H100 80GB HBM3 (E114, lean): E113's serving plan plus `projkit tune --flush read` of o at M 33..64
#     (splitk_mma_l2, wgmma_tma, the baseline); its read-flush sweep M 1..256 (60 pairs); the shipping
#     rule (plan_h100_port.py prune, fixed before the call); the pruned plan installed as
#     plans/serving/<device>.json and checked through `--plan serving` (projkit check of o, pooler and
#     unpooler; the binding's serving test). No default-workload benches: the plan differs from E113's
#     only at o M 33..64, which the default workload does not load (E113 measured its scored cases).
#   H200 (P45 on the H200): the shipped plan's default workload, 200 pairs, read / write / write / read.
# Usage: tools/experiments/call2_s51.sh BIN OUT   (BIN: projkit, libprojkit.so with plan sets; ~3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/b"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
source tools/experiments/red5_ab_lib.sh
PLAN=$(device_plan "$O") || exit 3
if [ "$PLAN" != h100-80gb-hbm3.json ]; then
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
  echo "done ($SECONDS s)"; exit 0
fi
BASE=results/h100/session50/c5-e113-serving-plan/plan-serving.json
SERVING=$O/plan-serving.json
timeout 100 "$BIN/projkit" tune --flush read --families o --m 33..64 --kernels splitk_mma_l2,wgmma_tma \
  --top 3 --screen-pairs 20 --pairs 100 --plan "$BASE" --out "$SERVING" --log "$O/tune-o33.jsonl" \
  >"$O/b/tune-o33.txt" 2>&1
echo "tune o 33..64 rc=$? ($SECONDS s)"
[ -f "$SERVING" ] || { tail -5 "$O/b/tune-o33.txt"; exit 4; }
timeout 90 "$BIN/projkit" bench --m-sweep 1..256 --pairs 60 --flush read --plan "$SERVING" \
  --json "$O/sweep-read-serving.json" >"$O/b/sweep-read-serving.txt" 2>&1
echo "sweep (serving) rc=$? ($SECONDS s)"
python3 tools/experiments/plan_h100_port.py prune "$SERVING" "$O/sweep-read-serving.json" "$O/plan-serving-pruned.json" \
  >"$O/prune.txt" 2>&1
echo "prune rc=$? ($SECONDS s)"; grep -E "^o |moved" "$O/prune.txt"
mkdir -p plans/serving && cp "$O/plan-serving-pruned.json" "plans/serving/$PLAN"
"$BIN/projkit" info 2>&1 | sed -n 5p
timeout 90 "$BIN/projkit" check --plan serving --families o,pooler,unpooler --json "$O/check-serving.json" \
  >"$O/b/check-serving.txt" 2>&1
echo "check --plan serving rc=$? ($SECONDS s)"; tail -2 "$O/b/check-serving.txt"
PROJKIT_LIB="$BIN/libprojkit.so" timeout 60 python3 -m pytest -q -p no:cacheprovider tests/python/test_binding.py \
  -k serving >"$O/b/pytest-serving.txt" 2>&1
echo "pytest -k serving rc=$? ($SECONDS s)"; tail -1 "$O/b/pytest-serving.txt"
python3 tools/experiments/flush_plans_summary.py "$O" E114 | head -7 | tee "$O/summary.txt"
tar cJf "$O/logs.tar.xz" -C "$O" b plan-serving.json tune-o33.jsonl && rm -rf "$O/b" "$O/plan-serving.json" "$O/tune-o33.jsonl"
xz -T0 "$O/sweep-read-serving.json" "$O/check-serving.json"
ls "$O"; echo "done ($SECONDS s)"
