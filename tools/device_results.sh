#!/usr/bin/env bash
# Everything a device's results need (results/h200/, results/h100/), in one call: GPU tests (+ memcheck), floor, the
# default bench, the A/A bench, check over M 1..256, baseline fidelity against torch.
# Usage: tools/device_results.sh BIN_DIR OUT_DIR [STEPS]
#   BIN_DIR holds projkit and projkit_gpu_tests; OUT_DIR receives the JSON and logs.
#   STEPS (default "tests floor bench cleanl2 aa check fidelity") picks and orders the steps;
#   also: tune (writes OUT/<device slug>.json, e.g. h200.json, and its log, OUT/tune.jsonl or
#   OUT/tune/; later steps then use that plan),
#   sweep (bench --m-sweep 1..256 -> OUT/bench-sweep.json), report (atlas of the sweep),
#   pytest (the Python binding against torch; needs BIN_DIR/libprojkit.so),
#   screen (tools/screen_configs.py over $SCREEN_KERNELS; the tune then screens
#   $TUNE_KERNELS plus the screened kernels that passed).
# Environment: PROJKIT_BENCH_ARGS (extra bench/floor arguments), SCREEN_KERNELS,
#   TUNE_KERNELS (default: every kernel), TUNE_ARGS (extra tune arguments), SWEEP_PAIRS,
#   BENCH_PAIRS (default bench and A/A; default 100),
#   FIDELITY_ARGS (default --paired; set it empty for the two-process comparison).
# A short table of the headline numbers is printed last.
set -uo pipefail
BIN=${1:?bin dir}; OUT=${2:?out dir}; STEPS=${3:-tests floor bench cleanl2 aa check fidelity}
EXTRA=${PROJKIT_BENCH_ARGS:-}
PLAN_ARGS=()
TUNE_KERNELS=${TUNE_KERNELS:-}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
LOG="$OUT/device-log.txt"
: >"$LOG"
step() { echo "== $* ($(date +%T))" | tee -a "$LOG"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$LOG" 2>&1
"$BIN/projkit" info >>"$LOG" 2>&1
status=0
for s in $STEPS; do
  case $s in
    tests)
      step "gpu tests"
      "$BIN/projkit_gpu_tests" >>"$LOG" 2>&1 || status=1
      tail -3 "$LOG"
      step "gpu tests under compute-sanitizer memcheck"
      timeout 240 tests/run_memcheck.sh "$BIN/projkit_gpu_tests" >"$OUT/memcheck.txt" 2>&1 || status=1
      tail -4 "$OUT/memcheck.txt" ;;
    screen)
      step "screen configs of: ${SCREEN_KERNELS:-}"
      passed=$(python3 tools/screen_configs.py "$BIN/projkit" "${SCREEN_KERNELS:-}" --out "$OUT/screen.json" | tee -a "$LOG" | tail -1)
      [ -n "$TUNE_KERNELS" ] && [ -n "$passed" ] && TUNE_KERNELS="$TUNE_KERNELS,$passed"
      echo "kernels for the tune: ${TUNE_KERNELS:-all}" | tee -a "$LOG" ;;
    tune)
      # the device's plan file (Plan::device_slug, as `projkit info` names it: h200.json, h100-80gb-hbm3.json)
      PLAN_FILE=$("$BIN/projkit" info 2>/dev/null | sed -n 's/^plan file for this device: \([^ ]*\).*/\1/p')
      if [ -z "$PLAN_FILE" ]; then
        echo "tune: projkit info named no plan file for this device; no tune" | tee -a "$LOG"; status=1; continue
      fi
      # TUNE_KERNELS set: one tune over those kernels; unset: the staged recipe (tools/tune_staged.sh).
      if [ -n "$TUNE_KERNELS" ]; then
        step "tune (all families, M 1..256; kernels: $TUNE_KERNELS)"
        "$BIN/projkit" tune --log "$OUT/tune.jsonl" --out "$OUT/$PLAN_FILE" --kernels "$TUNE_KERNELS" \
          ${TUNE_ARGS:-} 2>"$OUT/tune.err" | tee -a "$LOG" || status=1
        tail -3 "$OUT/tune.err"
      else
        step "tune (staged: tools/tune_staged.sh)"
        tools/tune_staged.sh "$BIN/projkit" "$OUT/tune" ${TUNE_ARGS:-} | tee -a "$LOG" || status=1
        [ -s "$OUT/tune/plan.json" ] && cp "$OUT/tune/plan.json" "$OUT/$PLAN_FILE"
      fi
      # Later steps (and the GPU tests, which read plans/<slug>.json) use the tuned plan.
      [ -s "$OUT/$PLAN_FILE" ] && PLAN_ARGS=(--plan "$OUT/$PLAN_FILE") && cp "$OUT/$PLAN_FILE" "plans/$PLAN_FILE" ;;
    sweep)
      step "bench --m-sweep 1..256"
      "$BIN/projkit" bench --m-sweep 1..256 --pairs ${SWEEP_PAIRS:-50} --json "$OUT/bench-sweep.json" "${PLAN_ARGS[@]}" $EXTRA 2>>"$LOG" | tail -3 | tee -a "$LOG" || status=1 ;;
    report)
      step "report (atlas of the sweep)"
      "$BIN/projkit" report "$OUT/bench-sweep.json" --out "$OUT/atlas" >>"$LOG" 2>&1 || status=1 ;;
    pytest)
      step "python binding vs torch"
      PROJKIT_LIB="$BIN/libprojkit.so" python3 -m pytest -q -p no:cacheprovider tests/python/test_binding.py >>"$LOG" 2>&1 || status=1
      tail -2 "$LOG" ;;
    floor)
      step "floor"
      "$BIN/projkit" floor --json "$OUT/floor.json" $EXTRA >>"$LOG" 2>&1 || status=1 ;;
    bench)
      step "bench (default workload, shipped plan)"
      "$BIN/projkit" bench --pairs ${BENCH_PAIRS:-100} --json "$OUT/bench-default.json" "${PLAN_ARGS[@]}" $EXTRA 2>>"$LOG" | tee -a "$LOG" || status=1 ;;
    cleanl2)
      # the same bench after a read flush: a clean L2, closer to a serving process (ledger P45)
      step "bench (default workload, shipped plan, read flush: clean L2)"
      "$BIN/projkit" bench --pairs ${BENCH_PAIRS:-100} --flush read --json "$OUT/bench-clean-l2.json" "${PLAN_ARGS[@]}" $EXTRA 2>>"$LOG" | tail -3 | tee -a "$LOG" || status=1 ;;
    aa)
      step "A/A bench (baseline vs baseline)"
      "$BIN/projkit" bench --baseline-vs-baseline --pairs ${BENCH_PAIRS:-100} --json "$OUT/aa.json" $EXTRA 2>>"$LOG" | tee -a "$LOG" | tail -4 || status=1 ;;
    check)
      step "check M 1..256"
      "$BIN/projkit" check --json "$OUT/check.json" "${PLAN_ARGS[@]}" >>"$LOG" 2>&1 || status=1
      tail -5 "$LOG" ;;
    fidelity)
      step "baseline fidelity (torch F.linear vs projkit baseline)"
      python3 tools/baseline_fidelity.py "$BIN/projkit" ${FIDELITY_ARGS---paired} --json "$OUT/baseline-fidelity.json" $EXTRA >>"$LOG" 2>&1 || status=1
      tail -8 "$LOG" ;;
    *) echo "unknown step $s" >&2; status=2 ;;
  esac
done
step "summary"
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
def load(n):
    p = os.path.join(out, n)
    return json.load(open(p)) if os.path.exists(p) else None
b = load("bench-default.json")
if b:
    print("bench score %.4f  loads: %s" % (b["score"], " ".join("M%d=%.3f" % (l["m"], l["speedup"]) for l in b["loads"])))
    for c in b["cases"]:
        print("  %-9s m=%-4d %-44s base %6.2f cand %6.2f ratio %.3f  x floor %.2f" % (
            c["family"], c["m"], c["method"][:44], c["base_us"], c["cand_us"], c["ratio"], c["over_floor"]))
r = load("bench-clean-l2.json")
if r:
    low = [c for c in r["cases"] if c["ratio"] < 1]
    print("clean-L2 bench (read flush) score %.4f; cases below 1.00: %s" % (
        r["score"], ", ".join("%s M%d %.3f" % (c["family"], c["m"], c["ratio"]) for c in low) or "none"))
s = load("bench-sweep.json")
if s:
    fams = {}
    for c in s["cases"]:
        fams.setdefault(c["family"], []).append(c)
    for fam, cs in fams.items():
        low = sorted((c for c in cs if c["ratio"] < 0.98), key=lambda c: c["ratio"])
        worst = min(cs, key=lambda c: c["ratio"])
        print("sweep %-9s min %.3f at M=%d (%s); %d of %d below 0.98%s" % (
            fam, worst["ratio"], worst["m"], worst["method"], len(low), len(cs),
            (": " + ", ".join("M%d %.3f %s" % (c["m"], c["ratio"], c["method"]) for c in low[:6])) if low else ""))
a = load("aa.json")
if a:
    rs = [c["ratio"] for c in a["cases"]]
    print("A/A score %.4f, case ratios %.3f..%.3f" % (a["score"], min(rs), max(rs)))
c = load("check.json")
if c:
    bad = [x for x in c["cases"] if not x["pass"]]
    print("check: %d cases, %d failed %s" % (len(c["cases"]), len(bad), [(x["family"], x["m"]) for x in bad[:10]]))
f = load("baseline-fidelity.json")
if f:
    print("fidelity: %s" % {k: v for k, v in f.items() if k != "cases"})
PY
exit $status
