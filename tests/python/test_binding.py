"""The thin Python binding (python/projkit) against torch's F.linear.

Needs torch with a CUDA device and a built libprojkit.so ($PROJKIT_LIB or build/);
otherwise the tests skip with the reason.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import projkit  # noqa: E402

torch = pytest.importorskip("torch")
F = torch.nn.functional

needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device visible to torch")


def _library_or_skip():
    try:
        projkit.library()
    except (projkit.ProjkitError, OSError) as e:
        pytest.skip(f"libprojkit.so not loadable: {e}")


SHAPES = {"qkv": (2304, 8192), "o": (8192, 1024), "pooler": (4096, 8192), "unpooler": (8192, 4096),
          "router": (256, 8192)}


@needs_gpu
@pytest.mark.parametrize("family", list(SHAPES))
@pytest.mark.parametrize("m", [1, 5, 8, 33, 128, 256])
def test_matches_torch_linear(family, m):
    _library_or_skip()
    n, k = SHAPES[family]
    g = torch.Generator(device="cuda").manual_seed(m)
    router = family == "router"
    w = (torch.randn(n, k, device="cuda", generator=g) / k ** 0.5).to(torch.float32 if router else torch.bfloat16)
    x = torch.randn(m, k, device="cuda", generator=g).to(torch.bfloat16)
    proj = projkit.Projection(family, w)
    y = proj(x)
    rows = 1024 if family == "unpooler" and m <= 8 else n
    assert y.shape == (m, rows)
    ref = F.linear(x.double(), w[:rows].double())
    err = (y.double() - ref).norm() / ref.norm()
    assert err < (1e-4 if router else 1e-2), f"{family} m={m} via {proj.method(m)}: rel L2 {err:.2e}"


@needs_gpu
@pytest.mark.parametrize("family,m", [("qkv", 8), ("qkv", 100), ("unpooler", 5)])
def test_without_weight_copies_runs_copy_free_twins(family, m):
    """weight_copies=False: the plan's methods that keep a copy of W (wgmma_tma's k-slabs, .wsl;
    fragment_stream_zw's packed rows) run as their copy-free twins, still right."""
    _library_or_skip()
    n, k = SHAPES[family]
    g = torch.Generator(device="cuda").manual_seed(m)
    w = (torch.randn(n, k, device="cuda", generator=g) / k ** 0.5).to(torch.bfloat16)
    x = torch.randn(m, k, device="cuda", generator=g).to(torch.bfloat16)
    with_copy = projkit.Projection(family, w)
    proj = projkit.Projection(family, w, weight_copies=False)
    keeps_copy = lambda method: ".wsl" in method or method.startswith("fragment_stream_zw")
    assert not keeps_copy(proj.method(m)), proj.method(m)
    if keeps_copy(with_copy.method(m)):
        assert proj.method(m) != with_copy.method(m)
    y = proj(x)
    rows = y.shape[1]
    ref = F.linear(x.double(), w[:rows].double())
    err = (y.double() - ref).norm() / ref.norm()
    assert err < 1e-2, f"{family} m={m} via {proj.method(m)}: rel L2 {err:.2e}"


@needs_gpu
def test_bad_input_raises_named_error():
    _library_or_skip()
    w = torch.zeros(2304, 8192, device="cuda", dtype=torch.bfloat16)
    proj = projkit.Projection("qkv", w, plan="safe", max_m=4)
    with pytest.raises(projkit.ProjkitError, match="max_m=4"):
        proj(torch.zeros(5, 8192, device="cuda", dtype=torch.bfloat16))
    with pytest.raises(projkit.ProjkitError, match="unknown projection family"):
        projkit.Projection("mlp", w)
