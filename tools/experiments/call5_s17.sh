#!/usr/bin/env bash
# Session 17, call 5: (1) the baseline-fidelity step that failed in run S (call 4: "no median for
# empty data" at its first case), again with the stripped library (BIN) and then the unstripped
# one (BIN2); (2) E64: red5's equal split in K-split-major block order (ko1): the red5 GPU suite,
# `projkit check` of the ko1 variants over the plan ranges, and a same-binary A/B against plan S's
# configs (200 pairs, base ko1 ko1 base).
# Usage: tools/experiments/call5_s17.sh BIN BIN2 OUT_DIR   (~3 min)
set -u
BIN=${1:?}; BIN2=${2:?}; O=${3:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== fidelity, stripped library ($(date +%T))"
python3 tools/baseline_fidelity.py "$BIN/projkit" --paired --json "$O/fidelity-stripped.json" >"$O/fidelity-stripped.txt" 2>&1
echo "rc=$?"; tail -4 "$O/fidelity-stripped.txt"
echo "== fidelity, unstripped library ($(date +%T))"
python3 tools/baseline_fidelity.py "$BIN2/projkit" --paired --json "$O/fidelity-unstripped.json" >"$O/fidelity-unstripped.txt" 2>&1
echo "rc=$?"; tail -4 "$O/fidelity-unstripped.txt"
. tools/experiments/red5_ab_lib.sh
red5_suite "$BIN" "$O"
red5_checks "$BIN" "$O" ".ko1" "qkv 1..64 $Q64" "qkv 65..128 $Q128" "qkv 129..256 $Q256.ki1" "pooler 33..64 $P64" \
  "pooler 65..192 $P192.ki1" "pooler 193..256 $P256.ki1" "unpooler 65..128 $U128.ki1" "unpooler 129..192 $U192" \
  "unpooler 224..256 $U256.ki1"
echo "== E64 A/B ($(date +%T))"
CASES="qkv:8:$Q64,$Q64.ko1 qkv:32:$Q64,$Q64.ko1 qkv:128:$Q128,$Q128.ko1 qkv:192:$Q192.ki1,$Q192.ki1.ko1
qkv:256:$Q256.ki1,$Q256.ki1.ko1 pooler:64:$P64,$P64.ko1 pooler:128:$P192.ki1,$P192.ki1.ko1
pooler:256:$P256.ki1,$P256.ki1.ko1 unpooler:128:$U128.ki1,$U128.ki1.ko1 unpooler:192:$U192,$U192.ko1
unpooler:256:$U256.ki1,$U256.ki1.ko1" \
  PAIRS=200 TAG=e64 tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
tar cJf "$O/logs.tar.xz" -C "$O" $(cd "$O" && ls check-*.txt gtest.txt fidelity-*) && rm -f "$O"/check-*.txt "$O"/gtest.txt "$O"/fidelity-*
echo "== summary ($(date +%T))"
cat "$O/summary-e64.txt"
