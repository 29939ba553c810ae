#!/usr/bin/env bash
# Session 33, call 5: the whole GPU suite on the final tree, after the second review's mend (host-only:
# shared_layout() in four methods' prepare; every kernel's .text byte-identical to calls 1-4's).
# Usage: tools/experiments/call5_s33.sh BIN OUT_DIR   (~40 s)
set -u
exec tools/experiments/call4_s33.sh "$@"
