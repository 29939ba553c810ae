#!/usr/bin/env bash
# Session 27, call 1: three measurements and no kernel change.
# 1. P26, the rotation's footprint: the plan's bench (baseline and candidate in each run) with
#    --copies 8 against --copies 64, two rounds (8 64 64 8), 200 pairs, at M 1 and 16 of every
#    family. Question: does a footprint past the TLB's reach (64 copies: 2.4-8.6 GB of weights and
#    prepared copies) move the times, and does it move the kernels that read a prepared copy of W
#    (the slabs, the router's hi / lo) more than those reading W in place (and cuBLAS)?
# 2. E89, listed configs never timed where they could run: o at M 1..64 on wgmma_tma's small-M
#    slab configs (bm64.split2 .ki1.wsl1 / .ki1.wsl2.ls1) and on the bm64 wmc1 pair at M 32..64;
#    qkv M 24..64 on E85's wsl2.ls1 again; the unpooler slice's kperm_splitk_zw shapes at M 1 / 8;
#    router M 32 on kw4.wn2.zw1 (ab_configs.sh, 200 pairs, the plan's method first), with
#    `projkit check --method` of the o configs over o M 1..64 first.
# 3. Light stamps (PROJKIT_STAMPS_LIGHT build) of the plan's M 128 configs (qkv / o / unpooler wmc1
#    pairs, pooler bm128.split4) and of the router ring (plan Z5b's wmc1) at M 128 / 256.
# Usage: tools/experiments/call1_s27.sh BIN LIGHT_STAMPS_BIN OUT_DIR   (~6 min)
set -u
BIN=${1:?}; SBIN=${2:?}; O=${3:?}; mkdir -p "$O/p26" "$O/ab"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== P26: copies 8 / 64 ($(date +%T))"
n=0
for copies in 8 64 64 8; do
  n=$((n + 1))
  timeout 120 "$BIN/projkit" bench --pairs 200 --loads 1,16 --copies "$copies" \
    --json "$O/p26/b-$n-$copies.json" >"$O/p26/b-$n-$copies.txt" 2>&1 || echo "bench copies $copies rc=$?"
done
python3 - "$O/p26" <<'PY' | tee "$O/p26.txt"
import glob, json, os, statistics as st, sys
res = {}
for f in glob.glob(os.path.join(sys.argv[1], 'b-*.json')):
    copies = int(os.path.basename(f)[:-5].split('-')[-1])
    for c in json.load(open(f))['cases']:
        res.setdefault((c['family'], c['m'], c['method']), {}).setdefault(copies, []).append((c['base_us'], c['cand_us'], c['ratio']))
print('P26: mean of two runs per copy count; base / cand us; change 8 -> 64 copies')
for (f, m, meth), v in sorted(res.items()):
    if 8 not in v or 64 not in v:
        continue
    b8, c8, r8 = (st.mean(x[i] for x in v[8]) for i in range(3))
    b64, c64, r64 = (st.mean(x[i] for x in v[64]) for i in range(3))
    print(f'{f:8s} M {m:3d} {meth[-40:]:40s} base {b8:6.2f} -> {b64:6.2f} ({100 * (b64 / b8 - 1):+.1f}%)  '
          f'cand {c8:6.2f} -> {c64:6.2f} ({100 * (c64 / c8 - 1):+.1f}%)  ratio {r8:.3f} -> {r64:.3f}')
PY
tar cJf "$O/p26.tar.xz" -C "$O" p26 && rm -rf "$O/p26"

W=wgmma_tma.bn128
c() { echo "$W.bm$1.split$2.mc1.stages$3.xfit1.red5.rk1$4"; }
S1=$(c 64 2 8 .ki1.wsl1); S2=$(c 64 2 8 .ki1.wsl2.ls1); P1=$(c 64 1 8 .ki1.wmc1)
tools/experiments/check_candidates.sh "$BIN" "$O/ab" '' "o:1..64:$S1" "o:1..64:$S2" "o:1..64:$P1"
echo "== E89 A/B ($(date +%T))"
L=splitk_mma_l2.rows64.split1
CASES="o:1:$L,$S1,$S2 o:8:$L,$S1,$S2 o:16:$L.wk2,$S1,$S2 o:32:$L.stages8,$S1,$S2,$P1"
for m in 48 64; do CASES="$CASES o:$m:baseline,$S1,$P1"; done
for m in 24 32 48 64; do CASES="$CASES qkv:$m:$(c 64 4 8 .ki1.wsl1),$(c 64 4 8 .ki1.wsl2.ls1)"; done
K=kperm_splitk_zw
CASES="$CASES unpooler:1:gemv_stream.rows4.warps8,$K.wr8.wk1.u8,$K.wr4.wk2.u8 unpooler:8:$K.wr4.wk2.u8,$K.wr8.wk1.u8"
CASES="$CASES router:32:router_hilo_stream.kw8.wn2.zw1,router_hilo_stream.kw4.wn2.zw1"
CASES=$CASES PAIRS=200 TAG=e89 timeout 240 tools/experiments/ab_configs.sh "$BIN" "$O/ab" >/dev/null
cat "$O/ab/summary-e89.txt"
tar cJf "$O/ab.tar.xz" -C "$O" ab && rm -rf "$O/ab"

echo "== light stamps at M 128 ($(date +%T), $SECONDS s)"
SKIP_TESTS=1 MODES="0 0" CASES="qkv:128:$(c 64 3 8 .ki1.wmc1) o:128:$(c 64 1 8 .ki1.wmc1) \
unpooler:128:$(c 64 1 8 .ki1.wmc1) pooler:128:$(c 128 4 6 .ki1)" \
  timeout 120 tools/experiments/p13_skip_probe.sh "$BIN" "$SBIN" "$O/p13" >"$O/p13.txt" 2>&1
echo "p13 rc=$?"
mkdir -p "$O/p13/st" && tar xJf "$O/p13/stamps.tar.xz" -C "$O/p13/st" &&
  python3 tools/experiments/stamps_phases.py "$O/p13/st/stamps" | tee "$O/stamps-m128.txt"
rm -rf "$O/p13/st"
echo "== router ring stamps ($(date +%T))"
R=router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1
RING_CASES="128:$R 256:$R" timeout 120 tools/experiments/p8_router_ring_stamps.sh "$SBIN" "$O/p8" >/dev/null 2>&1
echo "p8 rc=$?"; cat "$O/p8/p8.txt"
tar cJf "$O/p8.tar.xz" -C "$O" p8 && rm -rf "$O/p8"
echo "done ($SECONDS s)"
