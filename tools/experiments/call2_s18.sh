#!/usr/bin/env bash
# Session 18, call 2: three measurements, nothing ships from this call.
# (1) L7: `projkit floor --order-probes` on the default workload's sizes: does the grid's access
#     order set the stream rate? (LSU one CTA per SM grid-stride vs blocked ranges; TMA units
#     interleaved across CTAs vs a range per CTA, as every split-K kernel streams.)
# (2) P18 (prepared in session 17): ncu L2 / DRAM counters of red5 rk1 against its ki1 / ki1.ko1
#     variants (tools/experiments/p18_korder.cases), plus the L2 fabric (partition-crossing)
#     sectors where this ncu knows the metric.
# (3) Same-binary A/B at pooler M 128: plan S3's bm192.split4.ki1 against bm128.split4.ki1 and
#     bm128.split4 (200 pairs, base v v base).
# Usage: tools/experiments/call2_s18.sh BIN OUT_DIR   (~4 min)
set -u
BIN=${1:?}; O=${2:?}; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
. tools/experiments/red5_ab_lib.sh
echo "== L7 floor order probes ($(date +%T))"
timeout 200 "$BIN/projkit" floor --order-probes --json "$O/floor-order.json" >"$O/floor-order.txt" 2>&1; echo "rc=$?"
echo "== P18 ncu ($(date +%T))"
EXTRA=lts__t_sector_hit_rate.pct,dram__sectors_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
ncu --query-metrics >"$O/ncu-metrics.txt" 2>&1
for m in lts__t_sectors_srcunit_ltcfabric lts__t_sectors_srcunit_tex_lookup_miss lts__t_sectors_srcunit_tex_op_read_lookup_hit; do
  grep -q "^$m " "$O/ncu-metrics.txt" && EXTRA=$EXTRA,$m.sum
done
echo "extra metrics: $EXTRA"
CASES_FILE=tools/experiments/p18_korder.cases EXTRA_METRICS=$EXTRA timeout 330 \
  tools/experiments/p1_ncu_gaps.sh "$BIN" "$O/p18" >"$O/p18.txt" 2>&1; echo "rc=$?"
rm -f "$O"/p18/*.ncu-rep
echo "== A/B pooler M 128 ($(date +%T))"
P128=$P.bm128.split4.mc1.stages6.xfit1.red5.rk1
CASES="pooler:128:$P192.ki1,$P128.ki1,$P128" PAIRS=200 TAG=p128 tools/experiments/ab_configs.sh "$BIN" "$O" >/dev/null
tar cJf "$O/logs.tar.xz" -C "$O" p18 ncu-metrics.txt && rm -rf "$O/p18" "$O/ncu-metrics.txt"
echo "== summary ($(date +%T))"
python3 - "$O/floor-order.json" <<'PY'
import json, sys
fl = json.load(open(sys.argv[1]))["floors"]
short = {"stream_read.unroll8.evict_first": "lsu", "order.stream_read.unroll8.evict_first.sm1": "lsu.sm1",
         "order.stream_read_blocked.unroll8.evict_first.sm1": "lsu.blk.sm1",
         "order.stream_read_blocked.unroll8.evict_first": "lsu.blk", "tma_stream.box128x64.s8.evict_first": "box",
         "order.tma_stream.box128x64.s8.interleaved": "box.il", "tma_stream.bulk16k.s8.evict_first": "bulk",
         "order.tma_stream.bulk16k.s8.interleaved": "bulk.il"}
print("MB | floor us | " + " | ".join(short.values()) + "   (x floor)")
for f in fl:
    v = {x["name"]: x["us"] for x in f["variants"]}
    print("%.1f | %.2f | " % (f["bytes"] / 1e6, f["floor_us"]) +
          " | ".join("%.3f" % (v[n] / f["floor_us"]) if n in v else "-" for n in short))
PY
tail -12 "$O/p18.txt"
cat "$O/summary-p128.txt"
