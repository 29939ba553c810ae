#!/usr/bin/env bash
# Session 51, call 1 (ledger E114, for the H200): a serving plan (tuned with a clean L2, `--flush read`)
# for a card that has none, as E113 + E114 made the H100's (plans/serving/h100-80gb-hbm3.json): on the
# shipped plan, o at M 33..64 (splitk_mma_l2, wgmma_tma, the baseline), then o, pooler and unpooler at
# M 65..256 (wgmma_tma, the baseline). A card that already has a serving plan exits at once.
# Then `projkit bench --m-sweep 1..256 --flush read` (60 pairs per M) of the serving plan; the shipping
# rule (below) applied to it; the pruned plan installed as plans/serving/<device>.json and checked
# through `--plan serving` (projkit check of the families it changes; the binding's serving test); the
# default workload (200 pairs): read flush shipped, serving; write flush serving, shipped.
# Predicted: the pruned serving plan has no M below 0.98 in its read-flush sweep but noise (the
# shipping criterion); its read-flush score >= the shipped plan's; ~2 % lost under the write flush.
# Usage: tools/experiments/call1_s51.sh BIN OUT   (BIN: projkit, libprojkit.so with plan sets; ~9 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/b"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
source tools/experiments/red5_ab_lib.sh
PLAN=$(device_plan "$O") || exit 3
SHIPPED=plans/$PLAN
"$BIN/projkit" info 2>&1 | head -4 >>"$O/device.txt"
[ -f "plans/serving/$PLAN" ] && { echo "plans/serving/$PLAN exists: nothing to tune"; exit 0; }
SERVING=$O/plan-serving.json
timeout 120 "$BIN/projkit" tune --flush read --families o --m 33..64 --kernels splitk_mma_l2,wgmma_tma \
  --top 3 --screen-pairs 20 --pairs 100 --plan "$SHIPPED" --out "$O/plan-o33.json" --log "$O/tune-o33.jsonl" \
  >"$O/tune-o33.txt" 2>&1
echo "tune o 33..64 rc=$? ($SECONDS s)"
[ -f "$O/plan-o33.json" ] || { tail -5 "$O/tune-o33.txt"; exit 4; }
timeout 300 "$BIN/projkit" tune --flush read --families o,pooler,unpooler --m 65..256 --kernels wgmma_tma \
  --top 3 --screen-pairs 20 --pairs 100 --plan "$O/plan-o33.json" --out "$SERVING" --log "$O/tune-65.jsonl" \
  >"$O/tune-65.txt" 2>&1
echo "tune 65..256 rc=$? ($SECONDS s)"
[ -f "$SERVING" ] || { tail -5 "$O/tune-65.txt"; exit 4; }
timeout 100 "$BIN/projkit" bench --m-sweep 1..256 --pairs 60 --flush read --plan "$SERVING" \
  --json "$O/sweep-read-serving.json" >"$O/b/sweep-read-serving.txt" 2>&1
echo "sweep (serving) rc=$? ($SECONDS s)"
# The shipping rule (fixed before this call; plan_h100_port.py prune, session 36's rule): a range of
# the serving plan keeps its method if its read-flush sweep has median >= 1.00 and minimum >= 0.95
# over the range's M, else it goes to the baseline. The pruned plan is the candidate for
# plans/serving/; it is installed there for this call and checked through `--plan serving`.
python3 tools/experiments/plan_h100_port.py prune "$SERVING" "$O/sweep-read-serving.json" "$O/plan-serving-pruned.json" \
  >"$O/prune.txt" 2>&1
echo "prune rc=$? ($SECONDS s)"; tail -1 "$O/prune.txt"
mkdir -p plans/serving && cp "$O/plan-serving-pruned.json" "plans/serving/$PLAN"
"$BIN/projkit" info 2>&1 | sed -n 5p
timeout 120 "$BIN/projkit" check --plan serving --families o,pooler,unpooler --json "$O/check-serving.json" >"$O/b/check-serving.txt" 2>&1
echo "check --plan serving rc=$? ($SECONDS s)"; tail -2 "$O/b/check-serving.txt"
PROJKIT_LIB="$BIN/libprojkit.so" timeout 120 python3 -m pytest -q -p no:cacheprovider tests/python/test_binding.py \
  -k serving >"$O/b/pytest-serving.txt" 2>&1
echo "pytest -k serving rc=$? ($SECONDS s)"; tail -1 "$O/b/pytest-serving.txt"
SERVING=plans/serving/$PLAN
i=0
for fl in read write; do
  order="shipped serving"; [ $fl = write ] && order="serving shipped"
  for p in $order; do
    i=$((i + 1)); f=$SHIPPED; [ $p = serving ] && f=$SERVING
    timeout 60 "$BIN/projkit" bench --pairs 200 --flush $fl --plan "$f" --json "$O/b/$i-$fl-$p.json" >"$O/b/$i-$fl-$p.txt" 2>&1
    echo "bench $i ($fl, $p) rc=$? ($SECONDS s)"
  done
done
python3 tools/experiments/flush_plans_summary.py "$O" E114 | tee "$O/summary.txt"
tar cJf "$O/logs.tar.xz" -C "$O" b tune-o33.txt tune-65.txt plan-o33.json plan-serving.json \
  prune.txt tune-o33.jsonl tune-65.jsonl && rm -rf "$O/b"
xz -T0 "$O"/sweep-read-*.json "$O/check-serving.json"
rm -f "$O"/tune-*.txt "$O"/tune-*.jsonl "$O/plan-o33.json" "$O/plan-serving.json" "$O/prune.txt"
ls "$O"
echo "done ($SECONDS s)"
