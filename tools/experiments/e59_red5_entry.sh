#!/usr/bin/env bash
# Ledger E59 (session 16): the plan's equal-split red5 configs on red5's own entry point (config
# key rk1: wgmma_tma_red5_kernel, red and mc compiled in) against wgmma_tma_kernel, same binary,
# through e58_sm_work_table.sh (the Dense red5 GPU suite, which covers every rk1 config at every
# M where its grid is resident; checks; 200 pairs base / rk1 / rk1 / base per case).
# Usage: tools/experiments/e59_red5_entry.sh BIN OUT_DIR   (~2.5 min)
set -u
VARS=rk1 \
CASES=${CASES:-"qkv:32:Q64 qkv:64:Q64 qkv:128:Q128 qkv:256:Q256 pooler:64:P64 pooler:128:P192 pooler:256:P256 unpooler:128:U128 unpooler:192:U192 unpooler:256:U256"} \
CHECKS=${CHECKS:-"qkv:33..64:Q64.rk1 qkv:65..128:Q128.rk1 qkv:193..256:Q256.rk1 pooler:65..192:P192.rk1 pooler:193..256:P256.rk1 unpooler:65..128:U128.rk1 unpooler:193..256:U256.rk1"} \
  exec "$(dirname "$0")/e58_sm_work_table.sh" "$@"
