#!/usr/bin/env python3
"""Check every config of the named kernels where it applies, one process per
(config, family), before a long `projkit tune`: a config that faults or breaks the
contract here is reported, and its kernel can be left out of the tune (`--kernels`).

    tools/screen_configs.py build/projkit splitk_mma_l2,router_hilo_wgmma --out screen.json

Reads the applicable M ranges from `projkit info`; checks M = lo, mid, hi of each range
with one seed and one replay. Prints the kernels that passed everywhere (comma-separated)
on the last line; exit status 0 unless the tool itself fails.
"""
import argparse
import json
import re
import subprocess
import sys


def applicable(projkit, kernels):
    info = subprocess.run([projkit, "info"], capture_output=True, text=True, check=True).stdout
    out = []
    for line in info.splitlines():
        m = re.match(r"\s+(\S+)\s+applies to:(.*)$", line)
        if not m or m.group(1).split(".")[0] not in kernels:
            continue
        for fam, ranges in re.findall(r"(\w+)\[M ([^\]]+)\]", m.group(2)):
            for r in ranges.split(","):
                lo, hi = (int(v) for v in r.split(".."))
                out.append((m.group(1), fam, sorted({lo, (lo + hi) // 2, hi})))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("projkit")
    p.add_argument("kernels", help="comma-separated kernel names")
    p.add_argument("--out", help="write the per-config results here (JSON)")
    p.add_argument("--timeout", type=float, default=60)
    a = p.parse_args()
    kernels = [k for k in a.kernels.split(",") if k]
    results, bad = [], set()
    for cfg, fam, ms in applicable(a.projkit, kernels):
        cmd = [a.projkit, "check", "--method", cfg, "--families", fam, "--m", ",".join(map(str, ms)),
               "--seeds", "1", "--replays", "1"]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
            ok, tail = r.returncode == 0, (r.stdout + r.stderr).strip().splitlines()[-1:]
        except subprocess.TimeoutExpired:
            ok, tail = False, ["timeout"]
        results.append({"config": cfg, "family": fam, "m": ms, "pass": ok, "tail": tail})
        print(f"{'ok  ' if ok else 'FAIL'} {cfg:55s} {fam:9s} M {ms} {'' if ok else tail}", flush=True)
        if not ok:
            bad.add(cfg.split(".")[0])
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"kernels": kernels, "results": results, "failed_kernels": sorted(bad)}, f, indent=2)
    print(",".join(k for k in kernels if k not in bad))
    return 0


if __name__ == "__main__":
    sys.exit(main())
