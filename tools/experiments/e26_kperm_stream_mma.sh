#!/usr/bin/env bash
# Ledger E26 (issue 5): kperm_stream_mma against the shipped plan at M 2..32, one device call.
# Usage: tools/experiments/e26_kperm_stream_mma.sh BIN_DIR OUT_DIR
#   BIN_DIR holds projkit and projkit_gpu_tests built from this tree; OUT_DIR gets every log and
#   JSON. Steps: the GPU suite Dense/SplitkStream (every kperm config on the four dense
#   families, graph replay, two streams, NaN then clean call; also wgmma_tma red5), `projkit
#   check --method` per config over M 1..32, `projkit bench` of the shipped plan and of each
#   config (60 pairs, loads 2,3,5,8,12,16,24,32). A table is printed last: per (family, M) the
#   candidate us / ratio vs the baseline of the same process, plan first.
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
# The configs of kperm_stream_mma_configs() (src/kernels/kperm_stream_mma.cu).
# CF (environment) overrides the list.
CF=${CF:-"rt1.wr1.wk16.u8 rt1.wr1.wk8.u8 rt1.wr1.wk8.u4 rt2.wr1.wk8.u4 rt2.wr1.wk8.u8 rt2.wr2.wk4.u4 rt4.wr1.wk8.u2"}
echo "configs: $CF" | tee "$O/configs.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv >"$O/nvidia-smi.txt" 2>&1
timeout 300 "$BIN/projkit_gpu_tests" --gtest_filter='Dense/SplitkStream.*' >"$O/gtest.txt" 2>&1
echo "gtest rc=$?" | tee -a "$O/gtest.txt"; tail -4 "$O/gtest.txt"
# o (K = 1024) only where K % (32 * wk * u) == 0 and the tile is wide enough to matter.
fams_of() { case $1 in *wk16*|*.u8*|rt1.*) echo qkv,pooler,unpooler ;; *) echo qkv,pooler,unpooler,o ;; esac; }
for c in $CF; do
  timeout 90 "$BIN/projkit" check --method "kperm_stream_mma.$c" --families "$(fams_of $c)" --m 1..32 \
    --json "$O/check-$c.json" >"$O/check-$c.txt" 2>&1
  echo "check $c rc=$?"
done
L=2,3,5,8,12,16,24,32
timeout 150 "$BIN/projkit" bench --loads $L --families qkv,pooler,unpooler,o --pairs 60 \
  --json "$O/bench-plan.json" >"$O/bench-plan.txt" 2>&1
echo "bench plan rc=$?"
for c in $CF; do
  timeout 150 "$BIN/projkit" bench --method "kperm_stream_mma.$c" --loads $L --families "$(fams_of $c)" --pairs 60 \
    --json "$O/bench-$c.json" >"$O/bench-$c.txt" 2>&1
  echo "bench $c rc=$?"
done
python3 - "$O" $CF <<'PY'
import glob, json, os, sys
O, cfgs = sys.argv[1], sys.argv[2:]
rows = {}
for f in sorted(glob.glob(O + '/bench-*.json')):
    tag = os.path.basename(f)[6:-5]
    try:
        d = json.load(open(f))
    except Exception as e:
        print(tag, 'unreadable:', e); continue
    for c in d['cases']:
        rows.setdefault((c['family'], c['m']), {})[tag] = (c['cand_us'], c['ratio'], c['floor_us'])
for f in sorted(glob.glob(O + '/check-*.json')):
    try:
        d = json.load(open(f)); w = max(d['cases'], key=lambda c: c['worst_row_rel_l2'])
        print(os.path.basename(f), 'pass', d['pass'], 'failures', d['failures'], 'cases', len(d['cases']),
              'worst row rel L2 %.2e (%s M=%d)' % (w['worst_row_rel_l2'], w['family'], w['m']))
    except Exception as e:
        print(os.path.basename(f), 'unreadable:', e)
tags = ['plan'] + cfgs
print('family M floor | ' + ' | '.join(tags) + '   (us / ratio vs the baseline of the same process)')
for k in sorted(rows):
    r = rows[k]; fl = next(iter(r.values()))[2]
    print(k[0], k[1], '%.2f' % fl, '|', ' | '.join(('%.2f/%.3f' % r[t][:2]) if t in r else '-' for t in tags))
PY
