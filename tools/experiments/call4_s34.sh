#!/usr/bin/env bash
# Session 34, call 4: the final tree (E102b's and E103's code removed; every remaining kernel's .text
# byte-identical to calls 1-2's): the whole GPU suite (the ring's suite by its family name, every
# ring config including lf1.ls1) and the binding's pytest (tools/experiments/gpu_suite.sh).
# Usage: tools/experiments/call4_s34.sh BIN OUT_DIR   (~45 s)
set -u
BIN=${1:?}; O=${2:?}
PYTEST=1 tools/experiments/gpu_suite.sh "$BIN" "$O"
grep -E "RouterFamily.*router_hilo_ring|RouterLayouts" "$O/gtest.txt" | grep -E "^\[ +(OK|FAILED)" | head -8
echo "done ($SECONDS s)"
