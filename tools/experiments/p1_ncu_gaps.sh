#!/usr/bin/env bash
# P1 (ledger "What holds the score back", session 8): hardware counters of the cases farthest
# from their floor, one device call, so the next kernel changes aim at a measured limiter
# (HBM, L2, tensor pipe, issue) instead of leave-one-out guesses. Needs ncu (Firecracker
# machines, device library H200.md); clocks are left alone (--clock-control none) and caches
# are flushed before every replay pass (--cache-control all, like the judge's L2 flush).
# Usage: [CASES_FILE=F] tools/experiments/p1_ncu_gaps.sh BIN_DIR OUT_DIR [CASE_FILTER]
#   CASES_FILE (session 17): lines "name family M config kernel-regex" instead of the list below
#   (tools/experiments/p18_korder.cases: rk1 against its ki1 / ki1.ko1 variants).
#   NCU_SET (session 23): collect an ncu section set (e.g. full) instead of the six sections;
#   RAW=1 also writes OUT_DIR/<case>.raw, the raw page (every collected metric) as CSV.
#   Each case runs `projkit check --method CFG --families F --m M` under ncu, profiling the
#   first launch of the method's kernel; OUT_DIR/<case>.ncu-rep holds the full report and
#   OUT_DIR/<case>.csv the details page. The table printed last: kernel time under ncu, DRAM
#   and L2 bytes, throughputs in % of peak (DRAM, L2, SM, L1), achieved occupancy.
set -u
BIN=${1:?bin dir}; O=${2:?out dir}; FILTER=${3:-}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
NCU=${NCU:-ncu}
command -v "$NCU" >/dev/null || { echo "ncu not found: P1 needs Nsight Compute"; exit 2; }
# case-name family M method kernel-name-regex
CASES=$(cat <<'LIST'
qkv256-red5 qkv 256 wgmma_tma.bn128.bm256.split7.mc1.stages4.xfit1.red5 wgmma_tma_kernel
qkv128-red5 qkv 128 wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5 wgmma_tma_kernel
pooler256-red5 pooler 256 wgmma_tma.bn128.bm256.split4.mc1.stages4.xfit1.red5 wgmma_tma_kernel
pooler128-red5 pooler 128 wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5 wgmma_tma_kernel
unpooler128-red5 unpooler 128 wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5 wgmma_tma_kernel
unpooler128-cublas unpooler 128 baseline gemm|nvjet|sm90|xmma|cutlass
unpooler256-cublas unpooler 256 baseline gemm|nvjet|sm90|xmma|cutlass
pooler32-red5 pooler 32 wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5 wgmma_tma_kernel
qkv8-red5 qkv 8 wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5 wgmma_tma_kernel
pooler8-cluster pooler 8 splitk_mma_cluster.warps4 splitk_mma_cluster_kernel
slice8-cluster unpooler 8 splitk_mma_cluster.warps4 splitk_mma_cluster_kernel
pooler1-gemv pooler 1 gemv_stream.rows2.warps8 gemv_stream_kernel
pooler8-kperm pooler 8 kperm_stream_mma.rt1.wr1.wk8.u4 kperm_stream_mma_kernel
pooler16-kperm pooler 16 kperm_stream_mma.rt1.wr1.wk8.u4 kperm_stream_mma_kernel
slice8-kperm unpooler 8 kperm_stream_mma.rt1.wr1.wk8.u4 kperm_stream_mma_kernel
router256-ring router 256 router_hilo_ring.split16.wgn1.ts2.zw1 router_hilo_ring_kernel
router128-ring router 128 router_hilo_ring.split16.wgn1.ts2.zw1 router_hilo_ring_kernel
router128-wgmma router 128 router_hilo_wgmma.split16.wgn1.ts2 router_hilo_wgmma_kernel
router32-stream router 32 router_hilo_stream.kw8.wn4.zw1 router_hilo_stream_kernel
LIST
)
[ -n "${CASES_FILE:-}" ] && CASES=$(grep -v '^#' "$CASES_FILE")
SECTIONS=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis
          --section Occupancy --section LaunchStats --section WarpStateStats)
[ -n "${NCU_SET:-}" ] && SECTIONS=(--set "$NCU_SET")
echo "$CASES" | while read -r name fam m cfg kre; do
  [ -n "$FILTER" ] && ! [[ $name =~ $FILTER ]] && continue
  timeout 120 "$NCU" --clock-control none --cache-control all --kernel-name "regex:$kre" \
    --launch-skip 0 --launch-count 1 \
    "${SECTIONS[@]}" \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum${EXTRA_METRICS:+,$EXTRA_METRICS} \
    -f -o "$O/$name" "$BIN/projkit" check --method "$cfg" --families "$fam" --m "$m" >"$O/$name.log" 2>&1
  echo "$name rc=$?"
  [ -f "$O/$name.ncu-rep" ] && "$NCU" --import "$O/$name.ncu-rep" --csv --page details >"$O/$name.csv" 2>/dev/null
  # RAW=1 (session 23, P22): every collected metric, one column each (the raw page)
  [ -f "$O/$name.ncu-rep" ] && [ "${RAW:-0}" = 1 ] && "$NCU" --import "$O/$name.ncu-rep" --csv --page raw >"$O/$name.raw" 2>/dev/null
done
python3 - "$O" <<'PY'
import csv, glob, os, sys
O = sys.argv[1]
want = [('Duration', 'us'), ('dram__bytes_read.sum', 'MB'), ('lts__t_bytes.sum', 'MB'),
        ('DRAM Throughput', '%'), ('L2 Cache Throughput', '%'), ('Compute (SM) Throughput', '%'),
        ('L1/TEX Cache Throughput', '%'), ('Achieved Occupancy', '%'), ('Warp Cycles Per Issued Instruction', '')]
# EXTRA_METRICS (session 18): printed as further columns, raw values as ncu reports them
want += [(m, '') for m in os.environ.get('EXTRA_METRICS', '').split(',') if m]
print('case | ' + ' | '.join(w[0] for w in want))
for f in sorted(glob.glob(O + '/*.csv')):
    vals = {}
    try:
        for row in csv.DictReader(open(f)):
            name, unit, v = row.get('Metric Name', ''), row.get('Metric Unit', ''), row.get('Metric Value', '')
            try:
                x = float(v.replace(',', ''))
            except ValueError:
                continue
            if name in os.environ.get('EXTRA_METRICS', '').split(','):
                vals.setdefault(name, x); continue
            scale = {'nsecond': 1e-3, 'usecond': 1, 'msecond': 1e3, 'byte': 1e-6, 'Kbyte': 1e-3, 'Mbyte': 1,
                     'Gbyte': 1e3}.get(unit, 1)
            vals.setdefault(name, x * scale)
    except Exception as e:
        print(os.path.basename(f), 'unreadable:', e); continue
    print(os.path.basename(f)[:-4], '|', ' | '.join(('%.2f' % vals[w[0]]) if w[0] in vals else '-' for w in want))
PY
