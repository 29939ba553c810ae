#!/usr/bin/env bash
# Ledger E60 (session 16): router_hilo_ring.split16.wgn1.ts2.zw1.early1 (the plan at M 106..256)
# against its ct1 twin (wgn 1 / early 1 compiled in, 25-27 KB of .text against 22-25 KB: the
# compiler unrolls more), same binary: the Router GPU suite (every listed config), a check of
# ct1 at M 1..256, then 200 pairs base / ct1 / ct1 / base at M 96 / 128 / 192 / 256.
# Usage: tools/experiments/e60_ring_ct.sh BIN OUT_DIR   (~1.5 min; needs the tree of fbc50a9, where ct1 is listed:
# it was removed after call 6)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=router_hilo_ring.split16.wgn1.ts2.zw1.early1
timeout 120 "$BIN/projkit_gpu_tests" --gtest_filter='Router/*' >"$O/tests.txt" 2>&1; echo "tests rc=$?"; tail -1 "$O/tests.txt"
timeout 90 "$BIN/projkit" check --families router --m 1..256 --method "$B.ct1" >"$O/check.txt" 2>&1; echo "check rc=$?"; tail -1 "$O/check.txt"
for m in 96 128 192 256; do
  n=0
  for v in "$B" "$B.ct1" "$B.ct1" "$B"; do
    n=$((n + 1)); tag=base; [ "$v" != "$B" ] && tag=ct1
    timeout 60 "$BIN/projkit" bench --pairs 200 --families router --loads "$m" --method "$v" \
      --json "$O/b-router-$m-$n.$tag.json" >/dev/null 2>&1 || echo "bench $m $v rc=$?"
  done
done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import glob, json, os, statistics as st, sys
O = sys.argv[1]
res = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    m, rest = os.path.basename(f)[:-5].split('-')[2:4]
    c = json.load(open(f))['cases'][0]
    res.setdefault(int(m), {}).setdefault(rest.split('.')[1], []).append((c['ratio'], c['cand_us']))
print('E60 (mean of two runs each; % = paired ratio of ct1 against the plan config, same binary)')
for m, v in sorted(res.items()):
    b = st.mean(x[0] for x in v['base']); c = st.mean(x[0] for x in v['ct1'])
    print(f"router M {m:3d}: base {st.mean(x[1] for x in v['base']):5.2f} us | ct1 {st.mean(x[1] for x in v['ct1']):5.2f} us ({100 * (c / b - 1):+.1f}%)")
PY
tar cJf "$O/bench.tar.xz" -C "$O" $(cd "$O" && ls b-*.json) && rm -f "$O"/b-*.json
