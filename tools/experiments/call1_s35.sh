#!/usr/bin/env bash
# Session 35, call 1: two probes, information only (no plan change can follow from either).
#  P36: the SM clock in the dense main loops. A light stamps build (PROJKIT_WGMMA_STAMPS +
#    PROJKIT_STAMPS_LIGHT; production kernels byte-identical) records clock64 next to globaltimer
#    at the first stage and the main loop's end (wgmma_tma slots 14 / 15). `projkit bench` of the
#    plan at qkv / pooler / unpooler M 128 and 256, o M 128, and qkv / pooler M 32 (a memory-bound
#    reference); each process's last launch reports the per-CTA clock rate (loop_sm_ghz) and cycles
#    (loop_kcycles). Question: at M 256, is the main loop at the tensor pipe's rate (work cycles /
#    loop cycles ~ 1) at a power-capped clock, or under it at a high clock (then it is fed too slowly:
#    shared memory)?
#  P37: the router ring's adds alone (tools/dev/red_drain.cu, production BIN): the ring's exact
#    red.v4 pattern at M 128 / 256 without wgmma, against half the adds, no shared addresses, plain
#    stores, and adds issued while half the CTAs stream cold weights. Question: are the adds bound
#    by L2's atomic rate by themselves, and do adds issued during a stream wait behind it?
# Usage: tools/experiments/call1_s35.sh BIN STAMPS_BIN OUT_DIR   (~2 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/p36"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== P37: red_drain ($(date +%T))"
for kb in 64 128; do
  timeout 120 "$BIN/projkit_dev_red_drain" --reps 30 --stream-kb $kb >"$O/p37-stream$kb.txt" 2>&1
  echo "red_drain stream $kb KB rc=$?"
done
echo "== P36: dense main-loop SM clock ($(date +%T))"
CASES="qkv:128 pooler:128 unpooler:128 o:128 qkv:256 pooler:256 unpooler:256 qkv:32 pooler:32"
for run in 1 2; do
  for c in $CASES; do
    IFS=: read -r f m <<<"$c"
    timeout 60 "$SBIN/projkit" bench --pairs 50 --families "$f" --loads "$m" \
      --json "$O/p36/b-$f-$m-$run.json" >"$O/p36/out-$f-$m-$run.txt" 2>"$O/p36/err-$f-$m-$run.txt" ||
      echo "bench $f $m run $run rc=$?"
  done
done
python3 - "$O/p36" <<'PY' | tee "$O/p36.txt"
import glob, os, re, statistics as st, sys
d = sys.argv[1]
print('P36: per process, the method that ran (its last launch): first stage / main-loop end / exit, us from the')
print('earliest start (medians over CTAs); main-loop SM clock GHz (min / median / max over CTAs); main-loop kcycles (median)')
print(f"{'case':14s} {'run':3s} {'method':58s} {'first':>6s} {'loopend':>7s} {'exit':>6s} {'GHz min/med/max':>19s} {'kcyc':>7s}")
for f in sorted(glob.glob(os.path.join(d, 'err-*.txt'))):
    fam, m, run = os.path.basename(f)[4:-4].split('-')
    cur, blocks = None, {}
    for line in open(f):
        h = re.match(r'STAMPS (\S+) ctas=(\d+)', line)
        if h: cur = h.group(1); blocks[cur] = {}; continue
        p = re.match(r'STAMPS\s+(\S+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)', line)
        if p and cur: blocks[cur][p.group(1)] = tuple(float(p.group(i)) for i in (2, 3, 4))
    for name, ph in blocks.items():
        if 'loop_sm_ghz' not in ph: continue
        g = ph['loop_sm_ghz']
        print(f"{fam + ' M ' + m:14s} {run:3s} {name[-58:]:58s} {ph['first_data'][1]/1e3:6.2f} {ph['mainloop_end'][1]/1e3:7.2f} "
              f"{ph['exit'][1]/1e3:6.2f} {g[0]:5.3f}/{g[1]:5.3f}/{g[2]:5.3f} {ph['loop_kcycles'][1]:7.2f}")
PY
echo "== P37 tables"
cat "$O/p37-stream64.txt" "$O/p37-stream128.txt"
