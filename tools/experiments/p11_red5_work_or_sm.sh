#!/usr/bin/env bash
# Ledger P11 (session 14): do wgmma_tma red5's slow CTAs follow their work or their SM? A stamps
# build (cmake -DCMAKE_CUDA_FLAGS=-DPROJKIT_WGMMA_STAMPS=1) runs three plan shapes with CTA b doing
# the work of CTA (b + R) % gridDim.x, R = 0 and 37 ($PROJKIT_RED5_ROTATION), two processes each;
# the analysis compares each work unit's and each SM's stream time (main-loop end - first stage)
# between the two rotations, and checks that a CTA index lands on the same SM in every launch.
# Usage: tools/experiments/p11_red5_work_or_sm.sh STAMPS_BIN OUT_DIR   (~30 s)
set -u
SB=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
P=wgmma_tma.bn128
while read -r fam m cfg gx; do
  for rot in 0 37; do
    for run in 1 2; do
      PROJKIT_RED5_ROTATION=$rot PROJKIT_WGMMA_STAMPS_CSV="$O/stamps-$fam-$m-r$rot-$run.csv" timeout 40 "$SB/projkit" bench \
        --method "$P.$cfg" --families "$fam" --loads "$m" --pairs 50 >"$O/bench-$fam-$m-r$rot-$run.txt" 2>&1 || echo "bench $fam $m $rot rc=$?"
    done
  done
  echo "$fam $m $gx" >>"$O/cases.txt"
done <<'LIST'
unpooler 32 bm64.split2.mc1.stages8.xfit1.red5 128
qkv 256 bm256.split7.mc1.stages4.xfit1.red5 126
pooler 128 bm192.split4.mc1.stages5.xfit1.red5 128
LIST
python3 - "$O" <<'PY' | tee "$O/p11.txt"
import csv, glob, os, sys, statistics as st, collections
O = sys.argv[1]
def spearman(a, b):
    def rk(v):
        idx = sorted(range(len(v)), key=lambda i: v[i]); r = [0.0] * len(v)
        for k, i in enumerate(idx): r[i] = k
        return r
    ra, rb = rk(a), rk(b); ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    return num / (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
print('per case: Spearman of the stream time (main-loop end - first stage, median over launches) between rotation 0 and 37,')
print('by work unit and by SM; then the CTA -> SM map: share of CTA indices on the same SM in every launch')
for line in open(os.path.join(O, 'cases.txt')):
    fam, m, gx = line.split(); gx = int(gx)
    by_work, by_sm, sm_of = {}, {}, collections.defaultdict(set)
    for rot in (0, 37):
        w = collections.defaultdict(list); s = collections.defaultdict(list)
        for f in glob.glob(os.path.join(O, f'stamps-{fam}-{m}-r{rot}-*.csv')):
            for r in csv.reader(open(f)):
                if len(r) < 12: continue
                c, sm, s1, s2 = int(r[1]), int(r[4]), int(r[6]), int(r[7])
                if not (s1 and s2): continue
                t = (s2 - s1) / 1e3
                w[(c % gx + rot) % gx + (c // gx) * gx].append(t); s[sm].append(t); sm_of[c].add(sm)
        by_work[rot] = {k: st.median(v) for k, v in w.items()}; by_sm[rot] = {k: st.median(v) for k, v in s.items()}
    kw = [k for k in by_work[0] if k in by_work[37]]; ks = [k for k in by_sm[0] if k in by_sm[37]]
    same = sum(1 for c, v in sm_of.items() if len(v) == 1) / max(1, len(sm_of))
    print(f'{fam} M {m}: by work {spearman([by_work[0][k] for k in kw], [by_work[37][k] for k in kw]):+.2f} (n={len(kw)}), '
          f'by SM {spearman([by_sm[0][k] for k in ks], [by_sm[37][k] for k in ks]):+.2f} (n={len(ks)}); '
          f'CTA on one SM in every launch: {same:.0%}; stream us r0 {min(by_work[0].values()):.2f}..{max(by_work[0].values()):.2f}')
PY
