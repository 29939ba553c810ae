#!/usr/bin/env bash
# Ledger E58 (session 15): wgmma_tma red5 against variants of the same config, same binary.
# Calls 1-4 ran it with the config key smt (an SM work table: smt1 equal rates over every SM by
# %smid, smt2 / smt3 rates calibrated at prepare over every SM / the fastest tiles x split SMs,
# smt4 / smt5 smt1 / the equal split indexed by blockIdx in K-split-major order); those configs
# were removed after call 4 and the shipped form is wt1 (smt4's order, kernels/splitk_work_table).
# Steps: the Dense red5 GPU suite (every listed red5 config: fp64, three launches per M, flags
# reset); checks; bench 200 pairs base / each variant / each variant reversed / base per case;
# the smt calibration log ($PROJKIT_SM_TABLE_LOG, calls 1-2) when present.
# VARS picks the variants (config suffixes), CASES the bench cases (FAMILY:M:BASE-VARIABLE
# words), CHECKS the checks (FAMILY:RANGE:BASE-VARIABLE.VARIANT). The defaults are E58e's (run
# Q's call: wt1); calls 1-4 ran the versions in c4191cd, cbedb3f, 3a5b592 and fcf5282 with the
# VARS / CASES / CHECKS their ledger entries give.
# Usage: tools/experiments/e58_sm_work_table.sh BIN OUT_DIR   (~1 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
W=wgmma_tma.bn128
Q64=$W.bm64.split4.mc1.stages8.xfit1.red5     # qkv M 8..64 (plan)
P64=$W.bm64.split2.mc1.stages8.xfit1.red5     # pooler M 8..64, unpooler M 17..64 (plan)
Q128=$W.bm128.split4.mc1.stages6.xfit1.red5   # qkv M 128 (plan)
U128=$W.bm128.split2.mc1.stages6.xfit1.red5   # unpooler M 128 (plan)
P192=$W.bm192.split4.mc1.stages5.xfit1.red5   # pooler M 128 (plan)
P128=$W.bm128.split4.mc1.stages6.xfit1.red5   # pooler M 65..96 (plan; session 16)
P256=$W.bm256.split4.mc1.stages4.xfit1.red5   # pooler M 193..256 (plan; session 16)
Q192=$W.bm192.split7.mc1.stages5.xfit1.red5   # qkv M 129..192 (plan; session 16)
Q256=$W.bm256.split7.mc1.stages4.xfit1.red5   # qkv M 193..256 (plan; session 16)
U192=$W.bm192.split2.mc1.stages5.xfit1.red5   # unpooler M 129..192 (plan; session 16)
U256=$W.bm256.split2.mc1.stages4.xfit1.red5   # unpooler M 193..256 (plan; session 16)
PROJKIT_SM_TABLE_LOG="$O/calibration-tests.csv" timeout 240 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5*' >"$O/tests.txt" 2>&1; echo "tests rc=$?"
tail -1 "$O/tests.txt"; grep -E "Failure|FAILED" "$O/tests.txt" | head -5
chk() {  # chk FAMILY M-RANGE CONFIG
  timeout 60 "$BIN/projkit" check --families "$1" --m "$2" --method "$3" >"$O/check-$1-$2.txt" 2>&1
  echo "check $1 $2 $3 rc=$?"; tail -1 "$O/check-$1-$2.txt"
}
CHECKS=${CHECKS:-"pooler:1..64:P64.wt1 unpooler:1..64:P64.wt1"}
for c in $CHECKS; do IFS=: read -r f r cfg <<<"$c"; b=${cfg%%.*}; chk "$f" "$r" "${!b}.${cfg#*.}"; done
VARS=${VARS:-wt1}
ab() {  # ab FAMILY M BASE: base, each variant, each variant again in reverse order, base
  local n=0 v tag i vars=($VARS) order=("$3")
  for v in "${vars[@]}"; do order+=("$3.$v"); done
  for ((i = ${#vars[@]} - 1; i >= 0; --i)); do order+=("$3.${vars[i]}"); done
  order+=("$3")
  for v in "${order[@]}"; do
    n=$((n + 1)); tag=base; [ "$v" != "$3" ] && tag=${v##*.}
    timeout 60 "$BIN/projkit" bench --pairs 200 --families "$1" --loads "$2" --method "$v" \
      --json "$O/b-$1-$2-$n.$tag.json" >/dev/null 2>&1 || echo "bench $1 $2 $v rc=$?"
  done
}
export PROJKIT_SM_TABLE_LOG="$O/calibration.csv"  # the bench runs' calibrations only
CASES=${CASES:-"pooler:8:P64 pooler:16:P64 pooler:32:P64 unpooler:32:P64 unpooler:64:P64"}
for c in $CASES; do IFS=: read -r f m b <<<"$c"; ab "$f" "$m" "${!b}"; done
python3 - "$O" <<'PY' | tee "$O/summary.txt"
import csv, json, glob, os, sys, statistics as st
O = sys.argv[1]
res = {}
for f in glob.glob(os.path.join(O, 'b-*.json')):
    fam, m, rest = os.path.basename(f)[:-5].split('-')[1:4]
    try: c = json.load(open(f))['cases'][0]
    except Exception: continue
    res.setdefault((fam, int(m)), {}).setdefault(rest.split('.')[1], []).append((c['ratio'], c['cand_us'], c['base_us']))
print('E58 (mean of two runs each; % = paired ratio against the equal split, same binary)')
gains = {}
for (fam, m), v in sorted(res.items()):
    if 'base' not in v: continue
    b = st.mean(x[0] for x in v['base']); bu = st.mean(x[1] for x in v['base'])
    line = f'{fam:8s} M {m:3d}: equal {bu:6.2f} us'
    for k in sorted(x for x in v if x != 'base'):
        r = st.mean(x[0] for x in v[k]); ru = st.mean(x[1] for x in v[k])
        gains.setdefault(k, []).append(100 * (r / b - 1))
        line += f' | {k} {ru:6.2f} us ({gains[k][-1]:+.1f}%)'
    print(line)
for k, g in gains.items():
    if g: print(f'{k}: mean {st.mean(g):+.2f}%, min {min(g):+.2f}%, max {max(g):+.2f}%')
p = os.path.join(O, 'calibration.csv')
if os.path.exists(p):
    print('calibration: config, m, round, predicted span (ns per table k-block unit) before -> after, SM ns/k-block spread')
    for r in csv.reader(open(p)):
        v = [float(x) for x in r[6:]]
        print(r[0].replace('wgmma_tma.bn128.', ''), r[1], r[2], r[3], '->', r[4],
              f'| {min(v):.0f}..{max(v):.0f} (median {st.median(v):.0f})')
PY
