#!/usr/bin/env bash
# P41 (session 40): P19 / P30 / P40's open question. A bench process whose candidate holds a copy
# of W times cuBLAS (and the floor probe, which shares no buffer with anything) slower: +9-10 % at
# the unpooler slice (8 MB), +2-3 % on the 38-67 MB cases. P30 ruled out the rotated copies'
# footprint, P40 the pairing. What is left: the process's other allocations (the candidate's copies,
# made after the baseline's buffers), or what the candidate's graph reads.
# Hypothesis H2: allocating device memory after the baseline's buffers is enough (placement); H3:
# it takes the candidate reading a buffer of its own in the timed pairs (then no ballast arm moves).
# Arms, all at unpooler M 8 with 200 pairs, one bench process each, run a0 .. a5 a5 .. a0:
#   a0 kperm_splitk_zw.wr4.wk2.u8 (reads W in place; P40's "in-place" arm)
#   a1 a0 + 8 MiB per rotated copy allocated after the candidates, never touched (bench --ballast)
#   a2 a1 memset (--ballast-touch)
#   a3 a2 allocated before the rotated copies (--ballast-before)
#   a4 fragment_stream_zw.kw16.wn4 (its own 8 MiB packed rows per Projection; P40's "copy" arm)
#   a5 a0 + 64 MiB per copy after the candidates, memset
# Predicted under H2: a1 / a2 (and a5) read the baseline and floor slower, like a4; a3 maybe not.
# Under H3: only a4 does.
# Usage: tools/experiments/p41_ballast.sh BIN OUT_DIR   (~1 min: 12 processes)
# Leaves OUT_DIR/p41.txt (per process: baseline, candidate, floor, each side's order medians) and
# OUT_DIR/p41.tar.xz (the JSONs).
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
IN=kperm_splitk_zw.wr4.wk2.u8
arm() {  # arm index -> bench arguments
  case $1 in
    0) echo "--method $IN" ;;
    1) echo "--method $IN --ballast 8" ;;
    2) echo "--method $IN --ballast 8 --ballast-touch" ;;
    3) echo "--method $IN --ballast 8 --ballast-touch --ballast-before" ;;
    4) echo "--method fragment_stream_zw.kw16.wn4" ;;
    5) echo "--method $IN --ballast 64 --ballast-touch" ;;
  esac
}
n=0
for a in 0 1 2 3 4 5 5 4 3 2 1 0; do
  n=$((n + 1))
  timeout 60 "$BIN/projkit" bench --pairs 200 --families unpooler --loads 8 $(arm $a) \
    --json "$O/p41-$(printf %02d $n)-a$a.json" >/dev/null 2>&1 || echo "arm a$a (run $n) rc=$?"
done
python3 - "$O" <<'PY' | tee "$O/p41.txt"
import glob, json, os, statistics as st, sys
rows = {}
print('P41, unpooler M 8, 200 pairs per process (us; order: base 1st / 2nd place)')
print('run arm  ballast                          method (last 24)          base    cand   floor  base 1st/2nd')
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'p41-*.json'))):
    d = json.load(open(f)); c = d['cases'][0]; o = c.get('order', {})
    run, arm = os.path.basename(f)[4:-5].split('-')
    b = d['env'].get('ballast', '-')
    rows.setdefault(arm, []).append((c['base_us'], c['cand_us'], c['floor_us']))
    print(f"{run:>3} {arm:4s} {b:32s} {c['method'][-24:]:24s} {c['base_us']:6.2f} {c['cand_us']:7.2f} {c['floor_us']:6.2f}"
          f"  {o.get('base_first_us') or 0:.2f} / {o.get('base_second_us') or 0:.2f}")
print('means per arm: base / cand / floor')
for arm in sorted(rows):
    v = rows[arm]
    print(f"{arm}: {st.mean(x[0] for x in v):.2f} / {st.mean(x[1] for x in v):.2f} / {st.mean(x[2] for x in v):.2f}")
PY
(cd "$O" && tar cJf p41.tar.xz p41-*.json) && rm -f "$O"/p41-*.json
