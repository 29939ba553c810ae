#!/usr/bin/env bash
# Ledger P4 (session 10): where do wgmma_tma red5's stragglers sit? Per-CTA phase stamps of the
# last launch (start, first fill issued, first stage, main-loop end, exit) with the CTA's
# %smid, K split and N tile, for six plan cases, each in two separate processes (is a slow SM
# slow again?). BIN_DIR/projkit must be a PROJKIT_WGMMA_STAMPS build (cmake
# -DCMAKE_CUDA_FLAGS=-DPROJKIT_WGMMA_STAMPS=1); the CSV rows are appended to OUT_DIR/stamps.csv
# (columns: config, cta, ks, tile, smid, then ns from the earliest CTA start for start,
# first_data, mainloop_end, parked, fill issued (red5, slot 4 since session 12), reduced, exit).
# Usage: tools/experiments/p4_straggler_stamps.sh BIN_DIR OUT_DIR
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
P=wgmma_tma.bn128
for run in 1 2; do
  while read -r fam m cfg; do
    PROJKIT_WGMMA_STAMPS_CSV="$O/stamps-$run.csv" timeout 30 "$BIN/projkit" bench --method "$P.$cfg" --families "$fam" \
      --loads "$m" --pairs 50 >"$O/bench-$fam-$m-$run.txt" 2>&1 || echo "$fam $m run $run rc=$?"
  done <<'LIST'
qkv 8 bm64.split4.mc1.stages8.xfit1.red5
pooler 32 bm64.split2.mc1.stages8.xfit1.red5
unpooler 32 bm64.split2.mc1.stages8.xfit1.red5
pooler 128 bm192.split4.mc1.stages5.xfit1.red5
qkv 256 bm256.split7.mc1.stages4.xfit1.red5
pooler 256 bm256.split4.mc1.stages4.xfit1.red5
LIST
done
wc -l "$O"/stamps-*.csv
grep -h "STAMPS" "$O"/bench-*-1.txt | head -60
