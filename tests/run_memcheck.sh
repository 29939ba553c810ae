#!/usr/bin/env bash
# Runs a GPU gtest binary under compute-sanitizer memcheck.
#   run_memcheck.sh <gpu test binary>
# Exit 77 (ctest SKIP) with a visible message when there is no GPU or no
# compute-sanitizer. The filter keeps the run short (memcheck slows kernels
# ~10-100x): everything but the timing loops (bench, tune and floor smoke tests).
set -uo pipefail
bin=${1:?usage: run_memcheck.sh <gpu test binary>}

if ! { nvidia-smi -L 2>/dev/null | grep -q GPU; } && [ ! -e /dev/nvidia0 ]; then
  echo "SKIP: no GPU (nvidia-smi lists none and /dev/nvidia0 is absent)"; exit 77
fi
sanitizer=$(command -v compute-sanitizer || true)
for d in "${CUDA_HOME:-}" /usr/local/cuda /usr/local/cuda-13.0; do
  [ -z "$sanitizer" ] && [ -n "$d" ] && [ -x "$d/bin/compute-sanitizer" ] && sanitizer="$d/bin/compute-sanitizer"
done
if [ -z "$sanitizer" ]; then
  echo "SKIP: compute-sanitizer not found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin)"; exit 77
fi

filter=${PROJKIT_MEMCHECK_FILTER:-"-LabGpu.BenchSmoke*:LabGpu.TuneSmoke*:LabGpu.FloorProbeSmoke"}
echo "memcheck: $sanitizer on $bin (gtest filter: $filter)"
exec timeout 900 "$sanitizer" --tool memcheck --error-exitcode 1 --leak-check no "$bin" --gtest_filter="$filter"
