#!/usr/bin/env bash
# Session 47, call 2 (H200): E111's light stamps. Per-CTA phase stamps (a -DPROJKIT_WGMMA_STAMPS=1
# -DPROJKIT_STAMPS_LIGHT=1 build of this tree) of the plan's method, wt1, wt1.sk1 and wt1.sk2 at qkv
# and pooler M 256 (the bm256 tile) and pooler M 128 (bm128) (one bench process of 50 pairs each, two
# rounds). Per config, medians over the
# launches, us from the launch's earliest thread-0 entry: the median CTA's first stage; for the
# short members of each tile (member < members / 2) and the long ones (member >= members -
# members / 2): the median and last main-loop end and the last exit; the last exit overall. With a
# skew the short half's last exit should come before the long half's last main-loop end (its adds
# drained while the long half computes) and the long half's exit - end should be shorter than
# the equal split's.
# Usage: tools/experiments/call2_s47.sh STAMPS_BIN OUT_DIR   (~1-2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
PLAN=$(device_plan "$O")
for run in 1 2; do
  for fm in qkv:256 pooler:256 pooler:128; do
    f=${fm%%:*}; m=${fm##*:}; ref=$(plan_at "$f" "$m"); W=$W256; [ "$m" = 128 ] && W=$W128
    for v in "$ref" "$W" "$W.sk1" "$W.sk2"; do
      tag=${v##*.}; [ "$v" = "$ref" ] && tag=plan
      stamps_bench "$BIN" "$O/s-$f-$m-$tag-$run.csv" "$O/b-$f-$m-$tag-$run.txt" 50 "$f" "$m" "$v"
    done
  done
done
PYTHONPATH=tools/experiments python3 - "$O" <<'PY' | tee "$O/halves.txt"
import glob, os, statistics as st, sys
from p4_analyze import launches
O = sys.argv[1]
res = {}
for f in sorted(glob.glob(os.path.join(O, 's-*.csv'))):
    fam, m, tag = os.path.basename(f)[:-4].split('-')[1:4]
    for cfg, ll in launches(f).items():
        res.setdefault((fam + ' ' + m, tag), []).extend(L for L in ll if len(L) >= 100 and all('entry0' in c for c in L))
print('E111 light stamps (bm256 at M 256, bm128 at M 128): medians over launches, us from the launch\'s earliest thread-0 entry')
print(f'{"family M":12s} {"config":5s} {"n":>3s} {"stage0":>6s} | {"short: end med":>14s} {"end max":>7s} {"exit max":>8s} | '
      f'{"long: end med":>13s} {"end max":>7s} {"exit max":>8s} | {"last exit":>9s}')
for (fam, tag), ll in sorted(res.items()):
    def med(fn):
        return st.median(fn(L, min(c['entry0'] for c in L)) for L in ll)
    def half(L, which):
        per_tile = {}
        for c in L: per_tile[c['tile']] = per_tile.get(c['tile'], 0) + 1
        out = []
        for c in L:
            n = per_tile[c['tile']]; h = n // 2
            if (which == 0 and c['ks'] < h) or (which == 1 and c['ks'] >= n - h): out.append(c)
        return out or L
    row = [med(lambda L, e: st.median(c['first'] - e for c in L))]
    for w in (0, 1):
        row += [med(lambda L, e: st.median(c['end'] - e for c in half(L, w))),
                med(lambda L, e: max(c['end'] - e for c in half(L, w))),
                med(lambda L, e: max(c['exit'] - e for c in half(L, w)))]
    row.append(med(lambda L, e: max(c['exit'] - e for c in L)))
    print(f'{fam:12s} {tag:5s} {len(ll):3d} {row[0]:6.2f} | {row[1]:14.2f} {row[2]:7.2f} {row[3]:8.2f} | '
          f'{row[4]:13.2f} {row[5]:7.2f} {row[6]:8.2f} | {row[7]:9.2f}')
PY
grep -h "cand_us\|rc=" "$O"/b-*.txt 2>/dev/null | head -5
tar cJf "$O/stamps.tar.xz" -C "$O" $(cd "$O" && ls s-*.csv b-*.txt) && rm -f "$O"/s-*.csv "$O"/b-*.txt
echo "done ($SECONDS s)"
