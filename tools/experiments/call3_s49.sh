#!/usr/bin/env bash
# Session 49, call 3: P42 on the card (tools/experiments/call2_s49.sh: torch F.linear against the
# shipped plan through the binding, paired) and P44: is the first stage late because of the write
# flush? Ledger P5 / P7: stage 0's W box lands 1.8-2.3 us after its TMA issue where a plain 16-byte
# load of the same weights returns in 0.38 us; E46 (stage 0 alone in flight) did not move it; L1: the
# write flush leaves L2 full of dirty lines, and a stream after it pays their write-back (2.4 us on a
# 37.7 MB floor). P44 runs the light-stamps build of the plan's method at qkv M 256, pooler M 128, o
# M 128 and pooler M 16 under `--flush write` (the judge's) and `--flush read` (L2 full of clean
# lines), one bench process of 50 pairs per (case, flush), two rounds, and reads per launch, in us
# from its earliest thread-0 entry: the median CTA's first fill issued and first stage landed, the
# last main-loop end and the last exit (medians over the launches); and the bench's times.
# Predicted under "dirty write-backs delay the first boxes": the read flush lands the first stage
# >= 0.5 us earlier at every case; otherwise within +-0.2 us (the delay is the TMA path's own).
# Usage: tools/experiments/call3_s49.sh BIN STAMPS_BIN OUT   (~2 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/p44"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
tools/experiments/call2_s49.sh "$BIN" "$O/p42" | tail -40
. tools/experiments/red5_ab_lib.sh
PLAN=$(device_plan "$O/p44" "$BIN") || exit 3
for run in 1 2; do
  for fm in qkv:256 pooler:128 o:128 pooler:16; do
    f=${fm%%:*}; m=${fm##*:}; v=$(plan_at "$f" "$m")
    for fl in write read; do
      stamps_bench "$SBIN" "$O/p44/s-$f-$m-$fl-$run.csv" "$O/p44/b-$f-$m-$fl-$run.txt" 50 "$f" "$m" "$v" \
        --flush "$fl" --json "$O/p44/b-$f-$m-$fl-$run.json"
    done
  done
done
PYTHONPATH=tools/experiments python3 - "$O/p44" <<'PY' | tee "$O/p44/p44.txt"
import glob, json, os, statistics as st, sys
from p4_analyze import launches
O = sys.argv[1]
res = {}
for f in sorted(glob.glob(os.path.join(O, 's-*.csv'))):
    fam, m, fl, run = os.path.basename(f)[:-4].split('-')[1:5]
    for cfg, ll in launches(f).items():
        ll = [L for L in ll if len(L) >= 16 and all('entry0' in c for c in L)]
        res.setdefault((fam, int(m), fl), []).extend(ll)
bench = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    fam, m, fl, run = os.path.basename(f)[:-5].split('-')[1:5]
    c = json.load(open(f))['cases'][0]
    bench.setdefault((fam, int(m), fl), []).append((c['base_us'], c['cand_us']))
print('P44: medians over launches, us from the launch\'s earliest thread-0 entry (light stamps build); bench us: means of the two processes')
print(f'{"case":12s} {"flush":5s} {"n":>3s} {"fill issued":>11s} {"stage0":>7s} {"last end":>8s} {"last exit":>9s} | {"base us":>7s} {"cand us":>7s}')
for (fam, m, fl), ll in sorted(res.items()):
    def med(fn):
        return st.median(fn(L, min(c['entry0'] for c in L)) for L in ll)
    row = [med(lambda L, e: st.median(c['issue'] - e for c in L)), med(lambda L, e: st.median(c['first'] - e for c in L)),
           med(lambda L, e: max(c['end'] - e for c in L)), med(lambda L, e: max(c['exit'] - e for c in L))]
    b = bench.get((fam, m, fl), [])
    bb = st.mean(x[0] for x in b) if b else float('nan'); cc = st.mean(x[1] for x in b) if b else float('nan')
    print(f'{fam + " M " + str(m):12s} {fl:5s} {len(ll):3d} {row[0]:11.2f} {row[1]:7.2f} {row[2]:8.2f} {row[3]:9.2f} | {bb:7.2f} {cc:7.2f}')
PY
tar cJf "$O/p44/stamps.tar.xz" -C "$O/p44" $(cd "$O/p44" && ls s-*.csv b-*.txt b-*.json) && rm -f "$O"/p44/s-*.csv "$O"/p44/b-*.txt "$O"/p44/b-*.json
tar cJf "$O/p42.tar.xz" -C "$O" p42 && rm -rf "$O/p42"
echo "done ($SECONDS s)"
