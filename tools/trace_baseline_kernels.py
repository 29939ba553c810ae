#!/usr/bin/env python3
"""trace_baseline_kernels.py: the kernels torch F.linear launches next to projkit's baseline.

For baseline-fidelity mismatches: runs, per M, torch's call (router: F.linear(x.float(), W)
with fp32 W; dense: F.linear(x, W)) and projkit's C++ baseline (through the Python binding)
eagerly, each REPS times, with a torch.cuda._sleep(0) marker kernel before each group, so a
profiler's kernel list reads: marker, torch's kernels, marker, projkit's kernels. Run it under
Nsight Compute to see names, grids and durations, e.g.

    ncu --clock-control none --cache-control all \
        --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size \
        python3 tools/trace_baseline_kernels.py --family router --m 1,8 --lib build/libprojkit.so
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_fidelity import BUILTIN  # noqa: E402  (family -> (N, K, fp32 router weights))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--family", default="router", choices=sorted(BUILTIN))
    p.add_argument("--m", default="1,8", help="M values, e.g. 1,8,32")
    p.add_argument("--reps", type=int, default=2, help="calls per side and M")
    p.add_argument("--lib", help="libprojkit.so (default: $PROJKIT_LIB or build/libprojkit.so)")
    a = p.parse_args()
    if a.lib:
        os.environ["PROJKIT_LIB"] = a.lib
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import torch
    import torch.nn.functional as F
    import projkit

    n, k, router = BUILTIN[a.family]
    torch.backends.cuda.matmul.allow_tf32 = False
    for m in [int(v) for v in a.m.split(",")]:
        g = torch.Generator(device="cuda").manual_seed(m)
        w = (torch.randn(n, k, device="cuda", generator=g) / math.sqrt(k)).to(torch.float32 if router else torch.bfloat16)
        x = torch.randn(m, k, device="cuda", generator=g).to(torch.bfloat16)
        proj = projkit.Projection(a.family, w, method="baseline", max_m=m)
        ref = F.linear(x.float(), w) if router else F.linear(x, w)
        torch.cuda.synchronize()
        for _ in range(a.reps):
            torch.cuda._sleep(0)  # marker: torch's kernels follow
            ref = F.linear(x.float(), w) if router else F.linear(x, w)
            torch.cuda._sleep(0)  # marker: projkit baseline's kernels follow
            out = proj(x)
        torch.cuda.synchronize()
        err = (out.double() - ref.double()).norm() / ref.double().norm()
        print(f"{a.family} m={m}: projkit baseline vs torch rel L2 {err.item():.2e}")


if __name__ == "__main__":
    main()
