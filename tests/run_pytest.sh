#!/usr/bin/env bash
# The Python tests (tests/python), as one ctest test. Skips (exit 77, with the reason)
# when python3, pytest or matplotlib is missing; scripts/setup.sh installs them.
# Usage: tests/run_pytest.sh [LIBPROJKIT_SO [PROJKIT_CLI]]  (ctest passes its build's library and
# CLI; the binding reads the library through PROJKIT_LIB, the CLI tests the executable through
# PROJKIT_CLI, unless those are already set)
set -u
if [ -n "${1:-}" ]; then export PROJKIT_LIB=${PROJKIT_LIB:-$1}; fi
if [ -n "${2:-}" ]; then export PROJKIT_CLI=${PROJKIT_CLI:-$2}; fi
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null; then echo "SKIP: python3 not found"; exit 77; fi
for mod in pytest matplotlib; do
  if ! python3 -c "import $mod" 2>/dev/null; then
    echo "SKIP: python module '$mod' missing (python3 -m pip install pytest matplotlib)"; exit 77
  fi
done
exec python3 -m pytest -q -p no:cacheprovider tests/python
