#!/usr/bin/env bash
# Session 53, call 2: P45 (session 51's call2_s51.sh: the shipped plan's default workload under a read
# and the judge's write flush) and P42 (session 49's call2_s49.sh: the score as torch measures it),
# only on an H200 (both have run on H100s only); on any other card it writes card.txt and stops.
# Each part's files are packed into one tarball (the device tool returns a few files per call); the
# two summaries are printed last and kept in summary.txt.
# Usage: tools/experiments/call2_s53.sh CARRY.tar.xz OUT   (bin/projkit and bin/libprojkit.so; ~4 min)
set -u
T=${1:?}; O=${2:?}; mkdir -p "$O"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,driver_version --format=csv,noheader | tee "$O/card.txt"
grep -q H200 "$O/card.txt" || { echo "not an H200: nothing run"; exit 0; }
[ -x /tmp/c/bin/projkit ] || { mkdir -p /tmp/c && tar xJf "$T" -C /tmp/c; } || exit 2
tools/experiments/call2_s51.sh /tmp/c/bin "$O/p45" >"$O/p45.txt" 2>&1
echo "P45 rc=$? ($SECONDS s)"
tools/experiments/call2_s49.sh /tmp/c/bin "$O/p42" >"$O/p42.txt" 2>&1
echo "P42 rc=$? ($SECONDS s)"
for p in p45 p42; do mv "$O/$p.txt" "$O/$p/run.txt"; done
cat "$O/p45/summary.txt" "$O/p42/summary.txt" 2>/dev/null | tee "$O/summary.txt"
tar cJf "$O/p45.tar.xz" -C "$O" p45 && tar cJf "$O/p42.tar.xz" -C "$O" p42 && rm -rf "$O/p45" "$O/p42"
ls "$O"
