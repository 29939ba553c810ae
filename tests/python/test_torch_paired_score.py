"""tools/torch_paired_score.py: the load speedups and the score from per-case medians (no GPU)."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import torch_paired_score as tps  # noqa: E402


def case(family, m, torch_us, projkit_us):
    return {"family": family, "m": m, "torch_us": torch_us, "projkit_us": projkit_us}


def test_a_load_is_the_sum_of_torch_over_the_sum_of_projkit():
    cases = [case("qkv", 1, 16.0, 12.0), case("o", 1, 8.0, 4.0), case("qkv", 8, 17.0, 17.0)]
    got = tps.load_speedups(cases)
    assert [g["m"] for g in got] == [1, 8]  # order of first appearance
    assert math.isclose(got[0]["speedup"], 24.0 / 16.0)  # not the mean of 16/12 and 8/4
    assert math.isclose(got[1]["speedup"], 1.0)


def test_the_score_is_the_geometric_mean_of_the_loads():
    assert math.isclose(tps.geometric_mean([1.0, 4.0]), 2.0)
    assert math.isclose(tps.geometric_mean([1.5]), 1.5)


def test_an_empty_or_nonpositive_load_gives_nan():
    assert math.isnan(tps.geometric_mean([]))
    assert math.isnan(tps.geometric_mean([1.2, 0.0]))
    assert math.isnan(tps.load_speedups([case("o", 1, 5.0, 0.0)])[0]["speedup"])
