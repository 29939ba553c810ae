#!/usr/bin/env bash
# Plan A/B (session 15, after run Q): the default workload under plan O (run O's, session 13) and
# plan Q (pooler M 6..32 and unpooler M 17..64 on wgmma_tma ...red5.wt1) in one binary on one
# machine, 200 pairs, O Q Q O; the score and each case's ratio, Q against O.
# With BIN_Q set (session 17), the Q side runs that binary instead of BIN: a binary A/B (pass the
# same plan twice); the summary then lists every case (run_o.sh's A/B of run N's and the mend's
# binaries, session 13, and call8_s17.sh use it so).
# Usage: [BIN_Q=DIR] tools/experiments/plan_ab_q.sh BIN OUT_DIR PLAN_O PLAN_Q   (~2 min)
set -u
BIN=${1:?}; O=${2:?}; PO=${3:?}; PQ=${4:?}; mkdir -p "$O"
BQ=${BIN_Q:-$BIN}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for r in O1 Q1 Q2 O2; do
  case $r in O*) P=$PO; B=$BIN;; Q*) P=$PQ; B=$BQ;; esac
  timeout 120 "$B/projkit" bench --pairs 200 --plan "$P" --json "$O/ab-$r.json" >"$O/ab-$r.txt" 2>&1 || echo "ab $r rc=$?"
done
python3 - "$O" "${BIN_Q:+all}" <<'PY' | tee "$O/ab-summary.txt"
import json, sys, os, math
O, every_case = sys.argv[1], sys.argv[2] == 'all'
d = {}
for r in ('O1', 'Q1', 'Q2', 'O2'):
    try: d[r] = json.load(open(os.path.join(O, f'ab-{r}.json')))
    except Exception: pass
print('plan A/B scores:', ' '.join(f"{r} {v['score']:.4f}" for r, v in d.items()))
if len(d) == 4:
    so = math.sqrt(d['O1']['score'] * d['O2']['score']); sq = math.sqrt(d['Q1']['score'] * d['Q2']['score'])
    print(f'score O {so:.4f}  Q {sq:.4f}  ({100 * (sq / so - 1):+.2f}%)')
    for i, c in enumerate(d['O1']['cases']):
        ro = (d['O1']['cases'][i]['ratio'] + d['O2']['cases'][i]['ratio']) / 2
        rq = (d['Q1']['cases'][i]['ratio'] + d['Q2']['cases'][i]['ratio']) / 2
        if every_case or d['O1']['cases'][i]['method'] != d['Q1']['cases'][i]['method'] or abs(rq / ro - 1) > 0.02:
            print(f"  {c['family']:9s} M {c['m']:3d} ratio O {ro:.3f} Q {rq:.3f} ({100*(rq/ro-1):+.1f}%)  {d['Q1']['cases'][i]['method'][-40:]}")
PY
