#!/usr/bin/env bash
# The Python tests (tests/python), as one ctest test. Skips (exit 77, with the reason)
# when python3, pytest or matplotlib is missing; scripts/setup.sh installs them.
# Usage: tests/run_pytest.sh [LIBPROJKIT_SO]  (ctest passes its build's library; the binding
# reads it through PROJKIT_LIB unless that is already set)
set -u
if [ -n "${1:-}" ]; then export PROJKIT_LIB=${PROJKIT_LIB:-$1}; fi
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null; then echo "SKIP: python3 not found"; exit 77; fi
for mod in pytest matplotlib; do
  if ! python3 -c "import $mod" 2>/dev/null; then
    echo "SKIP: python module '$mod' missing (python3 -m pip install pytest matplotlib)"; exit 77
  fi
done
exec python3 -m pytest -q -p no:cacheprovider tests/python
