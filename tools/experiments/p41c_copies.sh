#!/usr/bin/env bash
# P41c (session 40, call 6 on a warm H100: results/h100/session40/c6-p41c-copies): the A/A at the
# unpooler slice (M 8) with 8 / 16 / 32 rotated copies, the candidate's cuBLAS on W or on its own
# copy of W (bench --cand-own-w): does P41b's slowdown depend on the number of rotated copies?
# The loop below is the call's command as it ran (there BIN was `bin` and OUT_DIR `$OUT/c6`).
# Usage: tools/experiments/p41c_copies.sh BIN OUT_DIR   (~5 s)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
for c in 8 16 32; do for own in "" "--cand-own-w"; do
  "$BIN/projkit" bench --pairs 200 --families unpooler --loads 8 --baseline-vs-baseline $own --copies $c \
    --json "$O/aa-c$c${own:+-own}.json" >/dev/null 2>&1
  python3 -c "
import json,sys;d=json.load(open(sys.argv[1]));c=d['cases'][0];print(sys.argv[1].split('/')[-1],round(c['base_us'],2),round(c['cand_us'],2),round(c['floor_us'],2))" \
    "$O/aa-c$c${own:+-own}.json"
done; done 2>&1 | tee "$O/p41c.txt"
