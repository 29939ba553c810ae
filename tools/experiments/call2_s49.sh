#!/usr/bin/env bash
# Session 49, call 2: the default workload's score as a torch program measures it (P42).
# 1. tools/torch_paired_score.py: torch F.linear (the router as F.linear(x.float(), W), TF32 off)
#    against projkit's Projection through the Python binding (the shipped plan for the device,
#    max_m 256, strict), paired in one process under the judge's protocol, 200 pairs per case;
#    plus each case's numeric smoke check against torch's fp32 product.
# 2. `projkit bench` of the same plan (200 pairs), for the side-by-side with the C++ baseline.
# A table last: per case the torch-paired ratio against the bench's ratio.
# Usage: tools/experiments/call2_s49.sh BIN OUT   (BIN holds projkit and libprojkit.so; ~2-3 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv
  "$BIN/projkit" info 2>&1 | head -4
} >"$O/device.txt" 2>&1
cat "$O/device.txt"
timeout 420 python3 tools/torch_paired_score.py --lib "$BIN/libprojkit.so" --pairs 200 \
  --json "$O/torch-score.json" >"$O/torch-score.txt" 2>&1
echo "torch_paired_score rc=$? ($SECONDS s)"
tail -3 "$O/torch-score.txt"
timeout 120 "$BIN/projkit" bench --pairs 200 --json "$O/bench-default.json" >"$O/bench.txt" 2>&1
echo "bench rc=$? ($SECONDS s)"
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import json, os, sys
O = sys.argv[1]
def load(n):
    p = os.path.join(O, n)
    return json.load(open(p)) if os.path.exists(p) else None
t, b = load("torch-score.json"), load("bench-default.json")
if not t or not b:
    sys.exit("missing: " + ", ".join(n for n, v in (("torch-score.json", t), ("bench-default.json", b)) if not v))
bc = {(c["family"], c["m"]): c for c in b["cases"]}
print(f"P42: torch-paired score {t['score']:.4f} (torch F.linear vs projkit through the binding); "
      f"projkit bench {b['score']:.4f} (C++ baseline); numeric {'PASS' if t['numeric_pass'] else 'FAIL'}")
print(f"{'family':9s} {'M':>4s} {'torch us':>8s} {'pk us':>7s} {'ratio':>6s} | {'bench base':>10s} {'cand':>6s} {'ratio':>6s} | method")
for c in t["cases"]:
    x = bc.get((c["family"], c["m"]), {})
    same = "" if x.get("method") == c["method"] else "  (bench: %s)" % x.get("method")
    print(f"{c['family']:9s} {c['m']:4d} {c['torch_us']:8.2f} {c['projkit_us']:7.2f} {c['ratio']:6.3f} | "
          f"{x.get('base_us', float('nan')):10.2f} {x.get('cand_us', float('nan')):6.2f} {x.get('ratio', float('nan')):6.3f} | "
          f"{c['method'][:40]}{same}")
print("loads (torch-paired): " + "  ".join(f"M={s['m']} x{s['speedup']:.3f}" for s in t["loads"]))
print("loads (bench):        " + "  ".join(f"M={s['m']} x{s['speedup']:.3f}" for s in b["loads"]))
PY
