#!/usr/bin/env bash
# Session 57, call 1, for an H200 (any other card: its name, exit 3 at once, nothing run):
# - P45 first (call2_s51.sh: the shipped plan's default workload, 200 pairs, read / write / write /
#   read flush; ~1 min): the tree's H200 numbers, last measured in session 49; packed as p45.tar.xz;
# - then call1_s53.sh into c1/: the ProjectionGpu / LabGpu gtests and the binding's pytest, then the
#   H200's serving plan (call1_s51.sh, ~7-9 min), stopped at what is left of LIMIT_S (what it wrote
#   by then comes back as c1/partial.tar.xz). Its last benches repeat P45's plan beside the serving one.
# Usage: tools/experiments/call1_s57.sh CARRY.tar.xz OUT [LIMIT_S]   (CARRY as for call1_s53.sh;
# LIMIT_S, default 575: the whole call's, below the run tool's 600 s limit)
set -u
T=${1:?}; O=${2:?}; LIMIT=${3:-575}; mkdir -p "$O"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader | tee "$O/card0.txt"
grep -q H200 "$O/card0.txt" || exit 3
mkdir -p /tmp/c && tar xJf "$T" -C /tmp/c || exit 2
tools/experiments/call2_s51.sh /tmp/c/bin "$O/p45" >"$O/p45.txt" 2>&1
echo "P45 rc=$? ($SECONDS s)"
mv "$O/p45.txt" "$O/p45/run.txt"; cat "$O/p45/summary.txt"
tar cJf "$O/p45.tar.xz" -C "$O" p45 && rm -rf "$O/p45"
tools/experiments/call1_s53.sh "$T" "$O/c1" $((LIMIT - SECONDS - 30))
echo "call done ($SECONDS s)"
