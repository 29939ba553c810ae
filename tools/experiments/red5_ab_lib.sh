# Sourced by the wgmma_tma red5 experiment scripts (e63_ksplit_interleave.sh, call3/5/7/9_s17.sh,
# p12_wt1_stamps.sh, p14_rk1_stamps.sh, call1/2/3_s47.sh): the red5 configs of plan R by family and
# token tile, the gate those scripts run before an A/B, one bench process of a stamps build, and the
# method a plan file runs at (family, M).
# shellcheck shell=bash
P=wgmma_tma.bn128
Q64=$P.bm64.split4.mc1.stages8.xfit1.red5.rk1    # qkv M 2..64
Q128=$P.bm128.split4.mc1.stages6.xfit1.red5.rk1  # qkv M 65..128
Q192=$P.bm192.split7.mc1.stages5.xfit1.red5.rk1  # qkv M 129..192
Q256=$P.bm256.split7.mc1.stages4.xfit1.red5.rk1  # qkv M 193..256
P64=$P.bm64.split2.mc1.stages8.xfit1.red5.rk1    # pooler M 33..64
P192=$P.bm192.split4.mc1.stages5.xfit1.red5.rk1  # pooler M 65..75, 77..192
P256=$P.bm256.split4.mc1.stages4.xfit1.red5.rk1  # pooler M 193..256
U64=$P64                                         # the same config for the unpooler
U128=$P.bm128.split2.mc1.stages6.xfit1.red5.rk1  # unpooler M 65..117, 128
U192=$P.bm192.split2.mc1.stages5.xfit1.red5.rk1  # unpooler M 118..127, 129..192
U256=$P.bm256.split2.mc1.stages4.xfit1.red5.rk1  # unpooler M 224..256
W64=$P.bm64.split2.mc1.stages8.xfit1.red5.wt1    # pooler M 6..32, unpooler M 17..64 (work table)
W128=$P.bm128.split2.mc1.stages6.xfit1.red5.wt1  # E111 (session 47; refuted and removed in session 48): the work table at M 65..128
W256=$P.bm256.split2.mc1.stages4.xfit1.red5.wt1  # E111 (removed): the work table at M 193..256 (.sk1 / .sk2: skewed)

# red5_suite BIN OUT: the red5 GPU suite (every listed red5 config at every resident M, three
# launches per M).
red5_suite() {
  echo "== gpu tests ($(date +%T))"
  timeout 240 "$1/projkit_gpu_tests" --gtest_filter='Dense/WgmmaTmaRed5*' >"$2/gtest.txt" 2>&1
  echo "rc=$?"; grep -E "^\[  (PASSED|FAILED) " "$2/gtest.txt"
}

# red5_checks BIN OUT SUFFIXES CASE..: `projkit check` of CFG + each suffix of SUFFIXES
# (space-separated, e.g. ".ki1 .ki2") over RANGE for every CASE "FAMILY RANGE CFG"; a line per run.
red5_checks() {
  local bin=$1 out=$2 suffixes=$3; shift 3
  echo "== check $suffixes ($(date +%T))"
  local c f r cfg v
  for c in "$@"; do
    read -r f r cfg <<<"$c"
    for v in $suffixes; do
      timeout 60 "$bin/projkit" check --method "$cfg$v" --families "$f" --m "$r" >"$out/check-$f-$r$v.txt" 2>&1
      echo "check $f $r $v rc=$? | $(tail -1 "$out/check-$f-$r$v.txt")"
    done
  done
}

# stamps_bench BIN CSV LOG PAIRS FAMILY M METHOD [BENCH_ARGS..]: one bench process of a
# PROJKIT_WGMMA_STAMPS build that writes every CTA's phase stamps of every launch to CSV; its
# output goes to LOG.
stamps_bench() {
  local bin=$1 csv=$2 log=$3 pairs=$4 f=$5 m=$6 method=$7; shift 7
  PROJKIT_WGMMA_STAMPS_CSV="$csv" timeout 60 "$bin/projkit" bench --pairs "$pairs" --families "$f" --loads "$m" \
    --method "$method" "$@" >"$log" 2>&1 || echo "stamps bench $f $m $method rc=$?"
}

# plan_method_at PLAN_FILE FAMILY M: the method PLAN_FILE runs at (FAMILY, M); "baseline" where no
# range of the family holds M (plan_h100_leads.py's method_at).
plan_method_at() {
  PYTHONPATH=tools/experiments python3 -c 'import json, sys; from plan_h100_leads import method_at
print(method_at(json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])))' "$@"
}

# plan_at FAMILY M: plan_method_at for plans/$PLAN (PLAN set by the caller, e.g. from device_plan).
plan_at() { plan_method_at "plans/$PLAN" "$1" "$2"; }

# device_plan OUT_DIR [BIN]: writes the card's name, max SM clock and power limit to
# OUT_DIR/device.txt (and stderr) and prints the card's plan file as `projkit info` names it
# (Plan::device_slug: h200.json, h100-80gb-hbm3.json); BIN defaults to the caller's $BIN. No plan
# file under plans/ for the card: a message on stderr, nothing printed, status 3.
device_plan() {
  local bin=${2:-${BIN:?device_plan: BIN}} file
  nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$1/device.txt" >&2
  file=$("$bin/projkit" info 2>/dev/null | sed -n 's/^plan file for this device: \([^ ]*\).*/\1/p')
  if [ -z "$file" ] || [ ! -f "plans/$file" ]; then
    echo "device_plan: no plan file under plans/ for this card ('$file')" >&2
    return 3
  fi
  echo "$file"
}
