#!/usr/bin/env bash
# Session 38, call 1: session 37's call 1 and its follow-up in one device start (starts are scarce:
# most failed in sessions 37 and 38).
# 1. tools/experiments/call1_s37.sh: `projkit tune` at unscored M with the device's plan as incumbent
#    (H200: nine M, session 36's open question; H100 80GB HBM3: sixteen M; any other card: stop).
# 2. tune_leads_moves.py: the leads -> moves (rule in its docstring, fixed before this call).
# 3. tools/experiments/plan_moves_call.sh with those moves: check of NEW, the 1..256 sweeps of OLD and
#    NEW, session 36's rule -> FINAL, FINAL's default bench / check / sweep / GPU tests.
# Usage: tools/experiments/call1_s38.sh BIN_DIR OUT_DIR   (~8 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
tools/experiments/call1_s37.sh "$BIN" "$O/tune"; rc=$?
cp "$O/tune/tune-summary.txt" "$O/" 2>/dev/null
tar cJf "$O/tune.tar.xz" -C "$O" tune && rm -rf "${O:?}/tune"
[ $rc -eq 0 ] || { echo "tune step rc=$rc: stop"; exit $rc; }
PLAN_FILE=$("$BIN/projkit" info 2>/dev/null | sed -n 's/^plan file for this device: \([^ ]*\).*/\1/p')
tar xJf "$O/tune.tar.xz" -C /tmp tune/tune.jsonl.xz
echo "== moves from the leads ($(date +%T), $SECONDS s)"
python3 tools/experiments/tune_leads_moves.py /tmp/tune/tune.jsonl.xz "plans/$PLAN_FILE" "$O/moves.json"
if [ "$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$O/moves.json")" = 0 ]; then
  echo "no lead: no moves to judge"; exit 0
fi
tools/experiments/plan_moves_call.sh "$BIN" "$O/moves" --moves-file "$O/moves.json"
mv "$O/moves/"* "$O/" && rmdir "$O/moves"
echo "== call done ($(date +%T), $SECONDS s)"
