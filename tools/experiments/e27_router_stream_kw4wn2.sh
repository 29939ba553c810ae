#!/usr/bin/env bash
# Ledger E27 (issue 4): router_hilo_stream.kw4.wn2.zw1 (32 rows x 256 K, 256 blocks, two per SM)
# against the shipped plan at M 1..70, one device call.
# Usage: tools/experiments/e27_router_stream_kw4wn2.sh BIN_DIR OUT_DIR
#   Steps: GPU tests Router/RouterFamily.* (every router config: fp64 at 15 M, NaN/Inf, graph
#   replays, two Projections on two streams), `projkit check --method` over M 1..256 for the new
#   config, `projkit bench` of the shipped plan and of kw4.wn2.zw1 and kw8.wn4.zw1 (100 pairs,
#   loads 1,3,5,8,12,16,24,32,48,64,70). A table is printed last.
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
NEW=router_hilo_stream.kw4.wn2.zw1; OLD=router_hilo_stream.kw8.wn4.zw1
timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter='Router/RouterFamily.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?" | tee -a "$O/gtest.txt"; tail -4 "$O/gtest.txt"
timeout 120 "$BIN/projkit" check --method $NEW --families router --m 1..256 --json "$O/check-new.json" \
  >"$O/check-new.txt" 2>&1
echo "check rc=$?"; tail -2 "$O/check-new.txt"
L=1,3,5,8,12,16,24,32,48,64,70
for tag in plan new old; do
  case $tag in plan) a=() ;; new) a=(--method $NEW) ;; old) a=(--method $OLD) ;; esac
  timeout 120 "$BIN/projkit" bench "${a[@]}" --families router --loads $L --pairs 100 \
    --json "$O/bench-$tag.json" >"$O/bench-$tag.txt" 2>&1
  echo "bench $tag rc=$?"
done
python3 - "$O" <<'PY'
import json, sys
O = sys.argv[1]; rows = {}
for tag in ('plan', 'new', 'old'):
    try:
        for c in json.load(open(f'{O}/bench-{tag}.json'))['cases']:
            rows.setdefault(c['m'], {})[tag] = (c['cand_us'], c['ratio'], c['floor_us'])
    except Exception as e:
        print(tag, 'unreadable:', e)
print('router M floor | plan | kw4.wn2.zw1 (new) | kw8.wn4.zw1   (us / ratio vs the baseline of the same process)')
for m in sorted(rows):
    r = rows[m]; fl = next(iter(r.values()))[2]
    print(m, '%.2f' % fl, '|', ' | '.join(('%.2f/%.3f' % r[t][:2]) if t in r else '-' for t in ('plan', 'new', 'old')))
PY
