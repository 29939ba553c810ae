#!/usr/bin/env bash
# Same-binary A/B of listed method configs (session 16: E61, P16). Per case FAMILY:M:CFG1,CFG2,..
# of $CASES: bench runs CFG1 .. CFGn CFGn .. CFG1 ($PAIRS pairs each, default 200), one process
# each, with $BENCH_ENV (e.g. PROJKIT_WGMMA_PROBE_SKIP=16 for a stamps-build probe) in the
# environment and $BENCH_ARGS (e.g. --copies 9) added to bench's arguments; then per case each
# config's mean us and paired ratio against CFG1 (the reference, e.g. the plan's config) in
# OUT_DIR/summary-$TAG.txt, and the JSONs packed into
# OUT_DIR/bench-$TAG.tar.xz (KEEP_JSON=1: also left unpacked in OUT_DIR, for a script that reads
# them next).
# Usage: CASES="qkv:8:A,B pooler:128:C,D" [PAIRS=200] [TAG=ab] [BENCH_ENV=..] [BENCH_ARGS=..] [KEEP_JSON=1] \
#          tools/experiments/ab_configs.sh BIN OUT_DIR
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
: "${CASES:?CASES: FAMILY:M:CFG1,CFG2,.. words}"
PAIRS=${PAIRS:-200}; TAG=${TAG:-ab}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for c in $CASES; do
  IFS=: read -r f m list <<<"$c"
  IFS=, read -r -a cfgs <<<"$list"
  order=("${cfgs[@]}")
  for ((i = ${#cfgs[@]} - 1; i >= 0; --i)); do order+=("${cfgs[i]}"); done
  n=0
  for v in "${order[@]}"; do
    n=$((n + 1))
    env ${BENCH_ENV:-} timeout 60 "$BIN/projkit" bench --pairs "$PAIRS" --families "$f" --loads "$m" --method "$v" \
      ${BENCH_ARGS:-} --json "$O/b-$TAG-$f-$m-$n.json" >/dev/null 2>&1 || echo "bench $TAG $f $m $v rc=$?"
  done
done
python3 - "$O" "$TAG" <<'PY' | tee "$O/summary-$TAG.txt"
import glob, json, os, statistics as st, sys
O, tag = sys.argv[1], sys.argv[2]
res = {}
for f in glob.glob(os.path.join(O, f'b-{tag}-*.json')):
    fam, m, n = os.path.basename(f)[:-5].split('-')[-3:]
    c = json.load(open(f))['cases'][0]
    res.setdefault((fam, int(m)), {}).setdefault(c['method'], []).append((int(n), c['ratio'], c['cand_us']))
print(f'{tag}: mean of the two runs of each config; % = paired ratio against the case\'s first config')
for key, v in sorted(res.items()):
    order = sorted(v, key=lambda k: min(x[0] for x in v[k]))
    b = st.mean(x[1] for x in v[order[0]])
    for k in order:
        r = st.mean(x[1] for x in v[k])
        print(f'{key[0]:8s} M {key[1]:3d} {k[-48:]:48s} {st.mean(x[2] for x in v[k]):6.2f} us ({100 * (r / b - 1):+.1f}%)')
PY
if tar cJf "$O/bench-$TAG.tar.xz" -C "$O" $(cd "$O" && ls b-"$TAG"-*.json) && [ "${KEEP_JSON:-0}" != 1 ]; then
  rm -f "$O"/b-"$TAG"-*.json  # packed; KEEP_JSON=1 leaves them for the next script
fi
