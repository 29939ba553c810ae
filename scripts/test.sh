#!/usr/bin/env bash
# The test command: set up what is missing, build, run every test. GPU tests run
# when a GPU is present and skip with a visible message otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${PROJKIT_BUILD_DIR:-build}
[ "${PROJKIT_SKIP_SETUP:-0}" = 1 ] || scripts/setup.sh
ctest --test-dir "$BUILD_DIR" --output-on-failure "$@"
