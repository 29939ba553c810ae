#!/usr/bin/env bash
# Session 25, call 4: P25c. What the x loads, the W loads and the red5 adds cost on today's kernels,
# measured in light builds (P25b's stamps without the cold symbol reads; P13's skip bits compiled
# in as constants: PROJKIT_STAMPS_LIGHT_SKIP = 1 no x, 2 no W, 8 no adds). P13 / P23 measured them
# in the stamps build, whose cold probe reads delayed every kernel's start by ~1.5 us. For each
# build, each case: two bench processes (100 pairs; the answers are wrong in every skip mode) and
# their stamps (per launch from the earliest thread-0 entry: stage 0 landed, last main-loop end,
# last exit). Cases: the plan's configs at qkv / pooler / unpooler M 16, pooler M 128 and 256.
# A diagnostic: no plan rule.
# Usage: tools/experiments/call4_s25.sh BIN OUT_DIR ALL_BIN NOX_BIN NOW_BIN NOADDS_BIN   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O/st"
declare -A B=([all]=${3:?} [nox]=${4:?} [noW]=${5:?} [noadds]=${6:?})
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
CASES="qkv:16:$W.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1 pooler:16:$W.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1
unpooler:16:$W.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1 pooler:128:$W.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1
pooler:256:$W.bm256.split4.mc1.stages4.xfit1.red5.rk1.ki1"
echo "== P25c ($(date +%T))"
for r in 1 2; do
  for mode in all nox noW noadds; do
    for c in $CASES; do
      IFS=: read -r f m cfg <<<"$c"
      PROJKIT_WGMMA_STAMPS_CSV="$O/st/s-$f-$m-$mode-$r.csv" timeout 60 "${B[$mode]}/projkit" bench --pairs 100 \
        --families "$f" --loads "$m" --method "$cfg" --json "$O/st/b-$f-$m-$mode-$r.json" >/dev/null 2>&1 ||
        echo "bench $f $m $mode rc=$?"
    done
  done
  for c in $CASES; do
    IFS=: read -r f m cfg <<<"$c"
    timeout 60 "$BIN/projkit" bench --pairs 100 --families "$f" --loads "$m" --method "$cfg" \
      --json "$O/st/b-$f-$m-prod-$r.json" >/dev/null 2>&1 || echo "bench prod $f $m rc=$?"
  done
done
python3 - "$O/st" <<'PY' | tee "$O/summary.txt"
import csv, glob, json, os, statistics as st, sys
d = sys.argv[1]
t, s = {}, {}
for f in glob.glob(os.path.join(d, 'b-*.json')):
    fam, m, mode, r = os.path.basename(f)[2:-5].split('-')
    try: c = json.load(open(f))['cases'][0]
    except Exception: continue
    t.setdefault((fam, int(m)), {}).setdefault(mode, []).append(c['cand_us'])
    p = os.path.join(d, f's-{fam}-{m}-{mode}-{r}.csv')
    if not os.path.exists(p): continue
    cur = None; ll = []
    for row in csv.reader(open(p)):
        if int(row[1]) == 0: cur = []; ll.append(cur)
        cur.append([int(x) for x in row[5:]])
    for L in ll:
        if len(L) < 8: continue
        e = min(c[7] for c in L)
        s.setdefault((fam, int(m)), {}).setdefault(mode, []).append(
            (st.median(c[1] - e for c in L), max(c[2] - e for c in L), max(c[6] - e for c in L)))
print('P25c: bench us (mean of 2 processes, 100 pairs) | stamps: stage 0 med / last main-loop end / last exit, us from the earliest thread-0 entry (medians over launches)')
for key in sorted(t):
    line = f'{key[0]:8s} M {key[1]:3d}'
    for mode in ('prod', 'all', 'nox', 'noW', 'noadds'):
        if mode in t[key]: line += f' | {mode} {st.mean(t[key][mode]):6.2f}'
    print(line)
    line = ' ' * 14
    for mode in ('all', 'nox', 'noW', 'noadds'):
        v = s.get(key, {}).get(mode)
        if v: line += f' | {mode} ' + '/'.join(f'{st.median(x[i]) / 1e3:.2f}' for i in range(3) for x in [list(zip(*v))])
    print(line)
PY
tar cJf "$O/st.tar.xz" -C "$O" st && rm -rf "$O/st"
