#!/usr/bin/env bash
# Session 36, call 2: a plan for the H100 80GB HBM3 (tools/experiments/plan_h100_port.py).
# 1. Port plans/h200.json to this device's header (values from `projkit info`) into a plan dir of
#    its own, which PROJKIT_PLAN_DIR points at, so every command below loads it by device slug.
# 2. r1: device_results.sh's floor, default bench, A/A, check M 1..256, baseline fidelity, the
#    Python binding and the 1..256 sweep (300 pairs) on the port; the GPU test binary (no memcheck).
# 3. The prune rule (fixed before this call, plan_h100_port.py prune) on r1's sweep. If it moves a
#    range: r2 = default bench, check and sweep again on the pruned plan.
# 4. Information only: `projkit tune` at the six scored loads with the final plan as incumbent
#    (P31's settings): does this chip prefer other listed configs there?
# Stops at once on any device other than an H100 (the port is that chip's).
# Usage: tools/experiments/call2_s36.sh BIN_DIR OUT_DIR   (~5 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/work"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "== device: $name ($(date +%T))"
case "$name" in *H100*) ;; *) echo "not an H100: stop"; exit 3 ;; esac
unset PROJKIT_PLAN PROJKIT_PLAN_DIR
"$BIN/projkit" info >"$O/work/info-before.txt" 2>&1
dev=$(sed -n 's/^device 0: \(.*\), sm_90, \([0-9]*\) SMs.*/\1/p' "$O/work/info-before.txt")
sm=$(sed -n 's/^device 0: .*, sm_90, \([0-9]*\) SMs.*/\1/p' "$O/work/info-before.txt")
rt=$(sed -n 's/^CUDA runtime \([0-9]*\), driver [0-9]*, cuBLAS \([0-9]*\).*/\1/p' "$O/work/info-before.txt")
cb=$(sed -n 's/^CUDA runtime \([0-9]*\), driver [0-9]*, cuBLAS \([0-9]*\).*/\2/p' "$O/work/info-before.txt")
slug=$(python3 -c "
import re, sys
s = sys.argv[1].lower()
s = s[7:] if s.startswith('nvidia ') else s
print(re.sub(r'[^a-z0-9]+', '-', s).strip('-'))" "$dev")
echo "device '$dev', $sm SMs, runtime $rt, cuBLAS $cb -> plans/$slug.json"
PD=$O/work/plans; mkdir -p "$PD"
python3 tools/experiments/plan_h100_port.py port plans/h200.json "$PD/$slug.json" --device "$dev" --sm "$sm" \
  --runtime "$rt" --cublas "$cb" || exit 4
cp "$PD/$slug.json" "$O/work/port.json"
export PROJKIT_PLAN_DIR=$PD
"$BIN/projkit" info >"$O/work/info-port.txt" 2>&1
grep -q "^plan: .*$slug.json" "$O/work/info-port.txt" || { echo "the port did not load:"; head -12 "$O/work/info-port.txt"; exit 5; }

echo "== r1: the port ($(date +%T))"
SWEEP_PAIRS=300 tools/device_results.sh "$BIN" "$O/r1" "floor bench aa check fidelity pytest sweep" >"$O/work/r1.txt" 2>&1
echo "r1 rc=$?"
echo "== GPU tests ($(date +%T))"
"$BIN/projkit_gpu_tests" >"$O/work/gpu-tests.txt" 2>&1; echo "gpu tests rc=$?"; tail -3 "$O/work/gpu-tests.txt"

echo "== prune rule ($(date +%T))"
python3 tools/experiments/plan_h100_port.py prune "$PD/$slug.json" "$O/r1/bench-sweep.json" "$O/work/pruned.json" \
  | tee "$O/work/prune.txt"
if ! grep -q "^0 range(s) moved" "$O/work/prune.txt"; then
  cp "$O/work/pruned.json" "$PD/$slug.json"
  echo "== r2: the pruned plan ($(date +%T))"
  SWEEP_PAIRS=300 tools/device_results.sh "$BIN" "$O/r2" "bench check sweep" >"$O/work/r2.txt" 2>&1
  echo "r2 rc=$?"
fi
cp "$PD/$slug.json" "$O/plan-final.json"

echo "== information: tune at the scored loads, final plan as incumbent ($(date +%T))"
timeout 200 "$BIN/projkit" tune --plan "$PD/$slug.json" --m 1,8,16,32,128,256 --top 4 --screen-pairs 40 --pairs 200 \
  --log "$O/work/tune6.jsonl" --out "$O/work/tune6.json" 2>"$O/work/tune6.err" >/dev/null
echo "tune rc=$?"
python3 tools/experiments/rescreen_summary.py "$O/work/tune6.jsonl" >"$O/work/tune6-summary.txt" 2>&1 \
  || echo "(rescreen_summary failed; see tune6-summary.txt)"

for r in r1 r2; do [ -d "$O/$r" ] && tar cJf "$O/$r.tar.xz" -C "$O" "$r" && rm -rf "${O:?}/$r"; done
tar cJf "$O/work.tar.xz" -C "$O" work
echo "== summary ($(date +%T))"
tail -n 12 "$O/work/r1.txt"
[ -f "$O/work/r2.txt" ] && tail -n 12 "$O/work/r2.txt"
tail -n 40 "$O/work/prune.txt"
tail -n 25 "$O/work/tune6-summary.txt"
rm -rf "${O:?}/work"
