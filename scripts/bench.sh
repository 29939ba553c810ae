#!/usr/bin/env bash
# The main job: set up what is missing, build, and run `projkit bench` on the
# default workload (needs a Hopper GPU). Extra arguments go to `projkit bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${PROJKIT_BUILD_DIR:-build}
[ "${PROJKIT_SKIP_SETUP:-0}" = 1 ] || scripts/setup.sh
mkdir -p results
exec "$BUILD_DIR/projkit" bench --json results/bench-latest.json "$@"
