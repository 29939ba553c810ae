#!/usr/bin/env bash
# Session 22, call 4: E80 (splitk_mma_l2 with two warps per 16-row slab for o, P20's lead):
# 1. the GPU suite of the small-M split-K families (every splitk_mma_l2 config, wk2 included) and
#    `projkit check` of both wk2 configs over o M 1..32;
# 2. the same-binary A/B (ab_configs.sh, 200 pairs, plan X's config first) at o M 1 / 4 / 8 / 9 /
#    12 / 16 (rows64.split1 against .wk2 and .stages8.wk2) and 17 / 24 / 32 (rows64.split1.stages8
#    against .stages8.wk2 and .wk2);
# 3. plan Z by plan_z_from_e80.py (rule in its docstring); if it moved the plan, three plan A/B
#    rounds (X against Z, 200 pairs, X Z Z X) and the ship verdict: every changed scored case gains
#    >= +0.5 % in mean paired ratio over the rounds and the mean score change is >= -0.3 %;
# 4. if Z ships: plans/h200.json = Z and its results (bench 400 pairs, check, A/A, fidelity, pytest,
#    floor, GPU tests + memcheck, the 1..256 sweep) in what is left of 585 s.
# Usage: tools/experiments/call4_s22.sh BIN OUT_DIR   (~2-10 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
E=$O/ab
L=splitk_mma_l2.rows64.split1
echo "== correctness ($(date +%T))"
timeout 150 "$BIN/projkit_gpu_tests" --gtest_filter='*SplitkStream*' >"$E/gtest.txt" 2>&1
echo "gtest rc=$? | $(grep -E '^\[  (PASSED|FAILED)' "$E/gtest.txt" | tr '\n' ' ')"
for cfg in $L.wk2 $L.stages8.wk2; do
  timeout 60 "$BIN/projkit" check --method "$cfg" --families o --m 1..32 >"$E/check-$cfg.txt" 2>&1
  echo "check o 1..32 $cfg rc=$? | $(tail -1 "$E/check-$cfg.txt")"
done
echo "== E80 A/B ($(date +%T))"
A="$L,$L.wk2,$L.stages8.wk2" B="$L.stages8,$L.stages8.wk2,$L.wk2"
CASES="o:1:$A o:4:$A o:8:$A o:9:$A o:12:$A o:16:$A o:17:$B o:24:$B o:32:$B" TAG=e80 KEEP_JSON=1 \
  timeout 120 tools/experiments/ab_configs.sh "$BIN" "$E" >/dev/null
cat "$E/summary-e80.txt"
echo "== plan rule ($(date +%T), $SECONDS s)"
(cd tools/experiments && python3 plan_z_from_e80.py "$E" ../../plans/h200.json "$O/plan-z.json") | tee "$O/plan-rule.txt"
rm -f "$E"/b-*.json  # packed in bench-e80.tar.xz by ab_configs.sh
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"
# steps 3-4 (the call ran them inline; the same commands, moved into plan_ab_ship.sh in the review)
if [ -f "$O/plan-z.json" ]; then
  LEFT_S=$((585 - SECONDS)) tools/experiments/plan_ab_ship.sh "$BIN" "$O" "$O/plan-z.json" Z
else
  echo "ship plan Z: 0 ($SECONDS s)"
fi
echo "done ($SECONDS s)"
