#!/usr/bin/env bash
# Session 30, call 4: the final tree on the device, and two measurements for the ledger.
# 1. The whole GPU suite; pytest of the binding (new: the unpooler slice with weight_copies=False runs
#    fragment_stream_zw's copy-free twin, kperm_splitk_zw.wr4.wk2.u8).
# 2. E95b: fragment_stream_zw.kw16.wn4 at the unpooler's M 1..2 in a matched context
#    (plan_e95b_context.py: plans PC = Z9 and PD = Z9 with M 1..8 on it; M 1, 2, 8; PC PD PD PC; 300
#    pairs). Information only.
# 3. P30: the same one-method bench (kperm_splitk_zw.wr4.wk2.u8, unpooler M 8, 300 pairs) with 8, 16
#    and 32 rotated weight copies (--copies), to see whether the process's allocations move the
#    baseline's and the floor's times (call 1: +7-9 % in the processes that held packed rows).
# Usage: tools/experiments/call4_s30.sh BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
PYTEST=1 tools/experiments/gpu_suite.sh "$BIN" "$O"
echo "== E95b context-matched A/B ($(date +%T))"
(cd tools/experiments && python3 plan_e95b_context.py pair ../../plans/h200.json "$O/ab") >/dev/null
for r in PC1 PD1 PD2 PC2; do
  P=$O/ab/$(echo "${r:0:2}" | tr '[:upper:]' '[:lower:]').json
  timeout 90 "$BIN/projkit" bench --pairs 300 --plan "$P" --families unpooler --loads 1,2,8 \
    --json "$O/ab/ctx-$r.json" >"$O/ab/ctx-$r.txt" 2>&1 || echo "bench $r rc=$?"
done
(cd tools/experiments && python3 plan_e95b_context.py summary "$O/ab") | tee "$O/e95b.txt"
echo "== P30 copies ($(date +%T))"
for c in 8 16 32 8 16 32; do
  timeout 90 "$BIN/projkit" bench --pairs 300 --method kperm_splitk_zw.wr4.wk2.u8 --families unpooler --loads 8 \
    --copies $c --json "$O/ab/copies-$c-$SECONDS.json" >/dev/null 2>&1 || echo "bench copies $c rc=$?"
done
python3 - "$O/ab" <<'PY' | tee "$O/p30.txt"
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'copies-*.json')), key=lambda p: int(p.split('-')[-1][:-5])):
    c = json.load(open(f))['cases'][0]
    print(f"P30 copies {os.path.basename(f).split('-')[1]:>2}: base {c['base_us']:.2f} cand {c['cand_us']:.2f} floor {c['floor_us']:.2f} ratio {c['ratio']:.3f}")
PY
echo "done ($SECONDS s)"
