#!/usr/bin/env bash
# Session 50, call 4 (ledger E113, with P46): a serving plan for the card this call gets: the shipped
# plan with o, pooler and unpooler at M 65..256 re-decided by `projkit tune --flush read` (a clean
# L2). E112 tuned only the six scored M; P45 / E112 put the clean-L2 losses of the shipped plan at M
# 128 / 256 of those three families (H100), where the write flush's ranking differs. Below M 65 and
# for qkv and the router the shipped plan already wins with a clean L2 at the scored M (P45).
# Steps: (1) the tune (wgmma_tma and the baseline; the shipped plan as incumbent and for every other
# (family, M)); (2) `projkit bench --m-sweep 1..256 --flush read` of the shipped plan (P46) and of the
# serving plan, 60 pairs per M; (3) the default workload, 200 pairs, per flush: shipped, serving,
# serving, shipped. A table last: per family the M below 1.00 / 0.98 with a clean L2, both plans;
# the scores under both flushes.
# Predicted: with a clean L2 the serving plan has no scored case below 1.00 and no M below 0.98
# (the shipped plan: o, pooler and unpooler at M ~128..256), and a read-flush score >= the shipped
# plan's + 1 %; under the write flush it gives up ~2 % (E112).
# Usage: tools/experiments/call4_s50.sh BIN OUT   (BIN holds projkit; ~6-8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/b"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv
  "$BIN/projkit" info 2>&1 | head -4
} >"$O/device.txt" 2>&1
cat "$O/device.txt"
SHIPPED=plans/$("$BIN/projkit" info 2>/dev/null | sed -n 's/^plan file for this device: \([^ ]*\).*/\1/p')
[ -f "$SHIPPED" ] || { echo "no shipped plan for this device ($SHIPPED)"; exit 3; }
SERVING=$O/plan-serving.json
timeout 300 "$BIN/projkit" tune --flush read --families o,pooler,unpooler --m 65..256 --kernels wgmma_tma \
  --top 3 --screen-pairs 20 --pairs 100 --plan "$SHIPPED" --out "$SERVING" --log "$O/tune-serving.jsonl" \
  >"$O/tune.txt" 2>&1
echo "tune rc=$? ($SECONDS s)"
[ -f "$SERVING" ] || { tail -5 "$O/tune.txt"; exit 4; }
for p in shipped serving; do
  f=$SHIPPED; [ $p = serving ] && f=$SERVING
  timeout 150 "$BIN/projkit" bench --m-sweep 1..256 --pairs 60 --flush read --plan "$f" \
    --json "$O/sweep-read-$p.json" >"$O/b/sweep-read-$p.txt" 2>&1
  echo "sweep ($p) rc=$? ($SECONDS s)"
done
i=0
for fl in read write; do
  for p in shipped serving serving shipped; do
    i=$((i + 1)); f=$SHIPPED; [ $p = serving ] && f=$SERVING
    timeout 100 "$BIN/projkit" bench --pairs 200 --flush $fl --plan "$f" --json "$O/b/$i-$fl-$p.json" >"$O/b/$i-$fl-$p.txt" 2>&1
    echo "bench $i ($fl, $p) rc=$? ($SECONDS s)"
  done
done
python3 tools/experiments/flush_plans_summary.py "$O" "E113 / P46" | tee "$O/summary.txt"  # (inline when it ran; moved in session 51)
tar cJf "$O/benches.tar.xz" -C "$O" b && rm -rf "$O/b"
xz "$O"/sweep-read-*.json
echo "done ($SECONDS s)"
