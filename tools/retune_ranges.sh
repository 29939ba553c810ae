#!/usr/bin/env bash
# Re-tune some (family, M) ranges of the shipped plan after kernels changed, keeping every other
# decision of its log (how runs I and J were made; ledger "The tune of run I / J").
# Usage: tools/retune_ranges.sh PROJKIT_BIN OUT_DIR FAMILIES A..B KERNELS [extra tune args]
#   FAMILIES: e.g. qkv,pooler,unpooler; A..B: the M range; KERNELS: what the tune screens there
#   (e.g. gemv_stream,splitk_mma_cluster,splitk_mma_l2,wgmma_tma,kperm_stream_mma).
#   LOG (environment, default plans/tune-logs/h200-tune.jsonl.xz): the log to start from, plain JSON
#   lines or xz-compressed (a name ending in .xz; the shipped logs are kept compressed).
# Writes OUT_DIR/kept.jsonl (LOG minus every record of FAMILIES inside A..B), OUT_DIR/tune.jsonl
# (kept + the new measurements: the plan is a pure function of it), OUT_DIR/h200.json (the plan)
# and OUT_DIR/tune.err (progress). Copy the plan to plans/h200.json and the log to
# plans/tune-logs/ (xz -9e) only after the results run.
set -euo pipefail
BIN=${1:?usage: retune_ranges.sh BIN OUT FAMILIES A..B KERNELS}; OUT=${2:?out dir}; FAMS=${3:?families}
RANGE=${4:?A..B}; KERNELS=${5:?kernels}; shift 5
LOG=${LOG:-plans/tune-logs/h200-tune.jsonl.xz}
mkdir -p "$OUT"
python3 - "$LOG" "$OUT/kept.jsonl" "$FAMS" "$RANGE" <<'PY'
import json, lzma, sys
src, dst, fams, rng = sys.argv[1], sys.argv[2], set(sys.argv[3].split(',')), sys.argv[4]
lo, hi = (int(v) for v in rng.split('..'))
def inside(rec):
    if rec.get('family') not in fams or 'm' not in rec:
        return False
    m = rec['m']
    a, b = (m[0], m[1]) if isinstance(m, list) else (m, m)
    return a <= hi and b >= lo  # any overlap: an inapplicable span crossing the edge goes too
kept = dropped = 0
opener = lzma.open if src.endswith('.xz') else open
with opener(src, 'rt') as f, open(dst, 'w') as g:
    for line in f:
        rec = json.loads(line)
        if rec.get('type') in ('screen', 'retest', 'decision', 'neighbour', 'inapplicable') and inside(rec):
            dropped += 1
            continue
        g.write(line); kept += 1
print(f'retune_ranges: kept {kept} records of {src}, dropped {dropped} ({sys.argv[3]} M {rng})', file=sys.stderr)
PY
"$BIN" tune --plan safe --families "$FAMS" --m "$RANGE" --kernels "$KERNELS" --resume "$OUT/kept.jsonl" \
  --log "$OUT/tune.jsonl" --out "$OUT/h200.json" "$@" 2>"$OUT/tune.err"
tail -3 "$OUT/tune.err"
