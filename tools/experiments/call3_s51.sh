#!/usr/bin/env bash
# Session 51, call 3: the shipped serving plan (plans/serving/h100-80gb-hbm3.json: E113's plan pruned by
# session 36's rule against E113's own read-flush sweep, o M 33..64 on the baseline) on the card, in the
# device time left: `projkit info` (the serving file found), `projkit check --plan serving` of the
# families it changes, the binding's serving test, and on an H100 the read-flush sweep of o at M 33..96
# (the pruned range and the tuned one above it). On an H200 (no serving plan): the fallback to the
# default plan with its warning (info, check of o, the binding test).
# Usage: tools/experiments/call3_s51.sh BIN OUT   (BIN: projkit, libprojkit.so of this tree; ~1-2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
source tools/experiments/red5_ab_lib.sh
PLAN=$(device_plan "$O") || exit 3
"$BIN/projkit" info 2>&1 | head -5 | tee -a "$O/device.txt"
fams=o,pooler,unpooler; [ "$PLAN" = h100-80gb-hbm3.json ] || fams=o
timeout 90 "$BIN/projkit" check --plan serving --families $fams --json "$O/check-serving.json" >"$O/check-serving.txt" 2>&1
echo "check --plan serving ($fams) rc=$? ($SECONDS s)"; tail -2 "$O/check-serving.txt"
PROJKIT_LIB="$BIN/libprojkit.so" timeout 60 python3 -m pytest -q -p no:cacheprovider tests/python/test_binding.py \
  -k serving >"$O/pytest-serving.txt" 2>&1
echo "pytest -k serving rc=$? ($SECONDS s)"; tail -1 "$O/pytest-serving.txt"
if [ "$PLAN" = h100-80gb-hbm3.json ]; then
  timeout 40 "$BIN/projkit" bench --m-sweep 33..96 --families o --pairs 60 --flush read --plan serving \
    --json "$O/sweep-o-read-serving.json" >"$O/sweep.txt" 2>&1
  echo "sweep o 33..96 (serving, read flush) rc=$? ($SECONDS s)"
  python3 - "$O/sweep-o-read-serving.json" <<'PY' | tee "$O/summary.txt"
import json, statistics as st, sys
cs = json.load(open(sys.argv[1]))["cases"]
for lo, hi in ((33, 64), (65, 96)):
    r = [c["ratio"] for c in cs if lo <= c["m"] <= hi]
    meth = sorted({c["method"] for c in cs if lo <= c["m"] <= hi})
    print(f"o M {lo}..{hi} read flush: median {st.median(r):.3f} min {min(r):.3f}, below 0.98: "
          f"{sum(x < 0.98 for x in r)} of {len(r)}; methods {meth}")
PY
fi
xz -T0 "$O"/*.json 2>/dev/null; ls "$O"; echo "done ($SECONDS s)"
