#!/usr/bin/env bash
# The correctness step of session 23's A/B calls (call2_s23.sh .. call4_s23.sh; session 22's calls
# ran the same commands inline): the GPU suites named by GTEST_FILTER (none if empty) into
# DIR/gtest.txt, then `projkit check` of each FAMILY:RANGE:CONFIG into DIR/check-FAMILY-CONFIG.txt,
# and per config DIR/check-CONFIG.txt, which plan_rule.check_passed reads: PASS only if every
# family it was checked on passed.
# Usage: tools/experiments/check_candidates.sh BIN DIR GTEST_FILTER FAMILY:RANGE:CONFIG ..
set -u
BIN=${1:?}; E=${2:?}; FILTER=${3?}; shift 3
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
mkdir -p "$E"
echo "== correctness ($(date +%T))"
if [ -n "$FILTER" ]; then
  timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter="$FILTER" >"$E/gtest.txt" 2>&1
  echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest.txt" | tr '\n' ' ')"
fi
cfgs=()
for c in "$@"; do
  IFS=: read -r f r cfg <<<"$c"
  timeout 90 "$BIN/projkit" check --method "$cfg" --families "$f" --m "$r" >"$E/check-$f-$cfg.txt" 2>&1
  echo "check $f $r $cfg rc=$? | $(tail -1 "$E/check-$f-$cfg.txt")"
  [[ " ${cfgs[*]} " == *" $cfg "* ]] || cfgs+=("$cfg")
done
for cfg in "${cfgs[@]}"; do
  ok=1
  for f in "$E"/check-*-"$cfg".txt; do [ "$(tail -n1 "$f")" = "check: PASS" ] || ok=0; done
  if [ $ok = 1 ]; then echo "check: PASS" >"$E/check-$cfg.txt"; else echo "check: FAIL (per family: check-FAMILY-$cfg.txt)" >"$E/check-$cfg.txt"; fi
done
