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
# P41b (session 40, after P41 ran twice on an H100: no ballast arm moved, a4 did; SET=p41b): is it
# the pairs reading two weight buffers, or something of fragment_stream_zw's own (its pack kernel,
# its kernel)? bench --cand-own-w prepares each candidate on its own device copy of W (same values):
#   b0 kperm_splitk_zw in place (a0)      b1 kperm_splitk_zw on its own copy of W
#   b2 fragment_stream_zw (a4)            b3 A/A (--baseline-vs-baseline): cuBLAS on one W
#   b4 A/A with the candidate cuBLAS on its own copy of W
# Predicted if two buffers per pair are the cause: b1 and b4 read the baseline (and floor) slower,
# like b2; if fragment_stream_zw's own: b1 and b4 read it like b0 and b3.
# Usage: tools/experiments/p41_ballast.sh BIN OUT_DIR [p41|p41b]   (~10 s: 12 / 10 processes)
# Leaves OUT_DIR/SET.txt (per process: baseline, candidate, floor, each side's order medians) and
# OUT_DIR/SET.tar.xz (the JSONs).
set -u
BIN=${1:?}; O=${2:?}; SET=${3:-p41}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
IN=kperm_splitk_zw.wr4.wk2.u8
arm() {  # arm index -> bench arguments
  case $1 in
    b0) echo "--method $IN" ;;
    b1) echo "--method $IN --cand-own-w" ;;
    b2) echo "--method fragment_stream_zw.kw16.wn4" ;;
    b3) echo "--baseline-vs-baseline" ;;
    b4) echo "--baseline-vs-baseline --cand-own-w" ;;
    0) echo "--method $IN" ;;
    1) echo "--method $IN --ballast 8" ;;
    2) echo "--method $IN --ballast 8 --ballast-touch" ;;
    3) echo "--method $IN --ballast 8 --ballast-touch --ballast-before" ;;
    4) echo "--method fragment_stream_zw.kw16.wn4" ;;
    5) echo "--method $IN --ballast 64 --ballast-touch" ;;
  esac
}
if [ "$SET" = p41b ]; then ORDER="b0 b1 b2 b3 b4 b4 b3 b2 b1 b0"; else ORDER="0 1 2 3 4 5 5 4 3 2 1 0"; fi
n=0
for a in $ORDER; do
  n=$((n + 1)); tag=a$a; [ "$SET" = p41b ] && tag=$a
  timeout 60 "$BIN/projkit" bench --pairs 200 --families unpooler --loads 8 $(arm $a) \
    --json "$O/$SET-$(printf %02d $n)-$tag.json" >/dev/null 2>&1 || echo "arm $tag (run $n) rc=$?"
done
python3 - "$O" "$SET" <<'PY' | tee "$O/$SET.txt"
import glob, json, os, statistics as st, sys
rows = {}
SET = sys.argv[2]
print(f'{SET.upper()}, unpooler M 8, 200 pairs per process (us; order: base 1st / 2nd place)')
print('run arm  ballast                          method (last 24)          base    cand   floor  base 1st/2nd')
for f in sorted(glob.glob(os.path.join(sys.argv[1], f'{SET}-*.json'))):
    d = json.load(open(f)); c = d['cases'][0]; o = c.get('order', {})
    run, arm = os.path.basename(f)[len(SET) + 1:-5].split('-')
    b = d['env'].get('ballast', '-')
    rows.setdefault(arm, []).append((c['base_us'], c['cand_us'], c['floor_us']))
    print(f"{run:>3} {arm:4s} {b:32s} {c['method'][-24:]:24s} {c['base_us']:6.2f} {c['cand_us']:7.2f} {c['floor_us']:6.2f}"
          f"  {o.get('base_first_us') or 0:.2f} / {o.get('base_second_us') or 0:.2f}")
print('means per arm: base / cand / floor')
for arm in sorted(rows):
    v = rows[arm]
    print(f"{arm}: {st.mean(x[0] for x in v):.2f} / {st.mean(x[1] for x in v):.2f} / {st.mean(x[2] for x in v):.2f}")
PY
(cd "$O" && tar cJf "$SET.tar.xz" "$SET"-*.json) && rm -f "$O/$SET"-*.json
