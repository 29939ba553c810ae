#!/usr/bin/env bash
# Session 56, call 1 (any card): tests/python/test_nn_linear.py (projkit.nn.Linear, the torch module:
# leading dimensions, the baseline above max_m, strided / unaligned x, CUDA-graph capture,
# torch.compile fullgraph, refusals) into nn.txt, then call1_s53.sh (the ProjectionGpu / LabGpu
# gtests and the binding's pytest files; on an H200 also its serving plan, stopped at LIMIT_S).
# On an H200 the serving plan runs first and the module's tests after it, if time is left.
# Usage: tools/experiments/call1_s56.sh CARRY.tar.xz OUT [LIMIT_S]   (CARRY as for call1_s53.sh)
set -u
T=${1:?}; O=${2:?}; LIMIT=${3:-520}; mkdir -p "$O"
nn_tests() {
  mkdir -p /tmp/c && { [ -f /tmp/c/bin/libprojkit.so ] || tar xJf "$T" -C /tmp/c; } || return 2
  PROJKIT_LIB=/tmp/c/bin/libprojkit.so timeout "$1" python3 -m pytest -q -p no:cacheprovider -rs \
    tests/python/test_nn_linear.py tests/python/test_binding_checks.py >"$O/nn.txt" 2>&1
  echo "nn pytest rc=$? ($SECONDS s)" | tee -a "$O/nn.txt"; tail -3 "$O/nn.txt" | head -2
}
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  tools/experiments/call1_s53.sh "$T" "$O" "$LIMIT"
  left=$((590 - SECONDS)); [ $left -gt 60 ] && nn_tests $left || echo "nn tests skipped: ${left} s left"
else
  nn_tests 240
  tools/experiments/call1_s53.sh "$T" "$O" 0
fi
