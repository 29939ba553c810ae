#!/usr/bin/env bash
# Installs what is missing (Debian/Ubuntu packages, a CMake >= 3.28 from PyPI), then
# configures and builds every target into ${PROJKIT_BUILD_DIR:-build}.
# Needs the CUDA 13 toolkit (nvcc) already installed. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${PROJKIT_BUILD_DIR:-build}

need_apt=()
have_header() { [ -e "/usr/include/$1" ]; }
have_header nlohmann/json.hpp || need_apt+=(nlohmann-json3-dev)
have_header CLI/CLI.hpp || need_apt+=(libcli11-dev)
{ have_header gtest/gtest.h && ls /usr/lib/*/libgtest.a >/dev/null 2>&1; } || need_apt+=(libgtest-dev)
have_header openssl/evp.h || need_apt+=(libssl-dev)
command -v ninja >/dev/null || need_apt+=(ninja-build)
command -v python3 >/dev/null || need_apt+=(python3 python3-pip)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

cmake_ok() {
  command -v cmake >/dev/null || return 1
  local v; v=$(cmake --version | head -1 | awk '{print $3}')
  [ "$(printf '%s\n3.28\n' "$v" | sort -V | head -1)" = "3.28" ]
}
if ! cmake_ok; then
  echo "setup: installing cmake>=3.28 from PyPI"
  python3 -m pip install -q "cmake>=3.28,<4" || python3 -m pip install -q --break-system-packages "cmake>=3.28,<4"
  hash -r
fi
# The report renderer and its tests (python/projkit/report.py, tests/python).
if ! python3 -c "import pytest, matplotlib" 2>/dev/null; then
  echo "setup: installing pytest and matplotlib from PyPI"
  python3 -m pip install -q pytest matplotlib || python3 -m pip install -q --break-system-packages pytest matplotlib
fi
if ! command -v nvcc >/dev/null; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH
  else echo "setup: nvcc (CUDA 13 toolkit) not found; install the CUDA toolkit first" >&2; exit 1; fi
fi

cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
