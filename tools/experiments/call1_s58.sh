#!/usr/bin/env bash
# Session 58, call 1, any card. On an H200: call1_s57.sh (P45 first, then the gtests, the binding's
# pytest and the H200's serving plan, stopped at LIMIT_S). On any other card call1_s57.sh writes the
# card's name and exits 3; then call1_s56.sh runs (the torch module's tests, the ProjectionGpu /
# LabGpu gtests and the binding's pytest, ~40 s), so that an H100 answer to an nvidia-h200 request
# still runs session 57's review mend (6ca24ba) on a GPU.
# Usage: tools/experiments/call1_s58.sh CARRY.tar.xz OUT [LIMIT_S]   (CARRY as for call1_s53.sh; OUT
# is $OUT itself: the scripts below write two folders down, the most that comes back)
set -u
T=${1:?}; O=${2:?}; LIMIT=${3:-560}
tools/experiments/call1_s57.sh "$T" "$O" "$LIMIT"
[ $? = 3 ] && tools/experiments/call1_s56.sh "$T" "$O" 240
echo "call done ($SECONDS s)"
