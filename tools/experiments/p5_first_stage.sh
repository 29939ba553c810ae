#!/usr/bin/env bash
# Ledger P5 (session 12): where do the 2.5-3.4 us to wgmma_tma red5's first stage go? A stamps
# build (cmake -DCMAKE_CUDA_FLAGS=-DPROJKIT_WGMMA_STAMPS=1) lands stage 0's x on a probe mbarrier
# of its own and records, per CTA: kernel start (slot 0, thread 128), the producer's stage-0
# issue (slot 4), stage 0's W landed (slot 1), its x landed (slot 5, thread 64), main-loop end
# (slot 2), exit (slot 6). Six plan cases, two processes each.
# Usage: tools/experiments/p5_first_stage.sh STAMPS_BIN OUT_DIR   (~40 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
P=wgmma_tma.bn128
for run in 1 2; do
  while read -r fam m cfg; do
    PROJKIT_WGMMA_STAMPS_CSV="$O/stamps-$run.csv" timeout 30 "$BIN/projkit" bench --method "$P.$cfg" --families "$fam" \
      --loads "$m" --pairs 50 >"$O/bench-$fam-$m-$run.txt" 2>&1 || echo "$fam $m run $run rc=$?"
  done <<'LIST'
qkv 8 bm64.split4.mc1.stages8.xfit1.red5
pooler 32 bm64.split2.mc1.stages8.xfit1.red5
unpooler 32 bm64.split2.mc1.stages8.xfit1.red5
pooler 128 bm192.split4.mc1.stages5.xfit1.red5
qkv 256 bm256.split7.mc1.stages4.xfit1.red5
pooler 256 bm256.split4.mc1.stages4.xfit1.red5
LIST
done
python3 - "$O" <<'PY' | tee "$O/p5.txt"
import csv, glob, statistics as st, sys
d = {}
for f in sorted(glob.glob(sys.argv[1] + '/stamps-*.csv')):
    for r in csv.reader(open(f)):
        v = [int(x) for x in r[5:12]]  # start, first(W), end, parked, issue, x, exit (ns from the earliest start)
        if v[4] == 0 or v[5] == 0: continue
        d.setdefault((r[0], f[-5]), []).append(v)
print('config (run): medians over CTAs, us from the earliest CTA start: start, issue, W0 landed, x0 landed, end; W0 - issue, x0 - issue')
for (k, run), rows in sorted(d.items()):
    med = lambda i: st.median(r[i] / 1e3 for r in rows)
    dl = lambda i: st.median((r[i] - r[4]) / 1e3 for r in rows)
    print(f'{k[14:58]:44s} ({run}) start {med(0):.2f} issue {med(4):.2f} W0 {med(1):.2f} x0 {med(5):.2f} end {med(2):.2f} | W0-issue {dl(1):.2f} x0-issue {dl(5):.2f} (n={len(rows)})')
PY
