#!/usr/bin/env bash
# Ledger E37 (session 10): does the cooperative launch attribute cost time under graph replay?
# Every split-K kernel with a zero warp (wgmma_tma red5, router_hilo_stream / router_hilo_ring
# zw1) is launched cooperatively, which is most of the plan from M = 4. BIN_DIR/projkit is the
# shipped build, NOCOOP_DIR/projkit the same tree built with -DPROJKIT_EXPERIMENT_NO_COOP (the
# attribute's value 0, nothing else changes; timing only: the bench runs nothing concurrently,
# and every grid fits one wave, so the zero warps' spin-waits still end).
# The same call validates session 9's review mends on the GPU: the whole GPU suite, memcheck of
# Dense/SplitkStream.* (the mended test helper), `projkit floor` (the mended variant table).
# Usage: tools/experiments/e37_coop_attr.sh BIN_DIR NOCOOP_DIR OUT_DIR
set -u
BIN=${1:?bin dir}; NC=${2:?nocoop dir}; O=${3:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
timeout 150 "$BIN/projkit_gpu_tests" >"$O/gtest.txt" 2>&1; echo "gpu tests rc=$?"
grep -E '^\[  (PASSED|FAILED)' "$O/gtest.txt" | head -5
PROJKIT_MEMCHECK_FILTER='Dense/SplitkStream.*' timeout 150 tests/run_memcheck.sh "$BIN/projkit_gpu_tests" >"$O/memcheck-splitk-stream.txt" 2>&1
echo "memcheck SplitkStream rc=$?"; tail -2 "$O/memcheck-splitk-stream.txt"
timeout 60 "$BIN/projkit" floor --json "$O/floor.json" >"$O/floor.txt" 2>&1; echo "floor rc=$?"
# A B B A: the shipped (cooperative) build and the no-attribute build, default workload, 60 pairs
i=0
for b in "$BIN" "$NC" "$NC" "$BIN"; do
  i=$((i + 1)); tag=$([ "$b" = "$BIN" ] && echo coop || echo nocoop)
  timeout 90 "$b/projkit" bench --pairs 60 --json "$O/bench-$i-$tag.json" >"$O/bench-$i-$tag.txt" 2>&1
  echo "bench $i $tag rc=$?"
done
python3 - "$O" <<'PY'
import glob, json, os, statistics, sys
O = sys.argv[1]
runs = {}
for f in sorted(glob.glob(O + '/bench-*-*.json')):
    tag = os.path.basename(f)[:-5].split('-')[2]
    try:
        d = json.load(open(f))
    except Exception as e:
        print(f, 'unreadable:', e); continue
    print(os.path.basename(f), 'score %.4f' % d['score'])
    for c in d['cases']:
        runs.setdefault((c['family'], c['m']), {}).setdefault(tag, []).append((c['cand_us'], c['base_us'], c['method']))
print('family M method | coop us (2 runs) | nocoop us (2 runs) | mean diff us (nocoop - coop)')
for k in sorted(runs):
    r = runs[k]
    if 'coop' not in r or 'nocoop' not in r: continue
    a = [x[0] for x in r['coop']]; b = [x[0] for x in r['nocoop']]
    print(k[0], k[1], r['coop'][0][2][:48], '|', ' '.join('%.2f' % v for v in a), '|', ' '.join('%.2f' % v for v in b),
          '| %+.2f' % (statistics.mean(b) - statistics.mean(a)))
PY
