"""The thin Python binding (python/projkit) against torch's F.linear.

Needs torch with a CUDA device and a built libprojkit.so ($PROJKIT_LIB or build/);
otherwise the tests skip with the reason.
"""

import pytest

from torch_gpu_common import FAMILIES, library_or_skip, needs_gpu, projkit, seeded_weight, shape, torch

F = torch.nn.functional


def _weights_and_x(family, m):
    """seeded_weight(family) and x [m, K] bf16, both from one CUDA generator seeded with m."""
    g = torch.Generator(device="cuda").manual_seed(m)
    w = seeded_weight(family, g)
    return w, torch.randn(m, shape(family)[1], device="cuda", generator=g).to(torch.bfloat16)


@needs_gpu
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("m", [1, 5, 8, 33, 128, 256])
def test_matches_torch_linear(family, m):
    library_or_skip()
    router = family == "router"
    w, x = _weights_and_x(family, m)
    n = w.shape[0]
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
    library_or_skip()
    w, x = _weights_and_x(family, m)
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
@pytest.mark.parametrize("family,m", [("o", 48), ("unpooler", 200), ("router", 130)])
def test_serving_plan_set(family, m):
    """plan="serving": the device's clean-L2 plan (plans/serving/<device>.json), or its default plan
    where it has none; strict=True instead refuses a missing serving plan, naming the file."""
    library_or_skip()
    router = family == "router"
    w, x = _weights_and_x(family, m)
    proj = projkit.Projection(family, w, plan="serving")
    y = proj(x)
    ref = F.linear(x.double(), w.double())
    err = (y.double() - ref).norm() / ref.norm()
    assert err < (1e-4 if router else 1e-2), f"{family} m={m} via {proj.method(m)}: rel L2 {err:.2e}"
    try:
        strict = projkit.Projection(family, w, plan="serving", strict=True)
    except projkit.ProjkitError as e:
        assert "serving/" in str(e), str(e)
    else:
        assert strict.method(m) == proj.method(m)


@needs_gpu
def test_fallbacks_at_creation_are_reported_as_warnings(tmp_path):
    """What creation fell back on reaches Python: Projection.warnings and one ProjkitWarning each. A
    plan file that cannot be opened gives the baseline everywhere; the device's own plan, where it
    has one (plan_file), gives none."""
    library_or_skip()
    w = torch.zeros(2304, 8192, device="cuda", dtype=torch.bfloat16)
    missing = str(tmp_path / "no-such-plan.json")
    with pytest.warns(projkit.ProjkitWarning, match="cannot be opened"):
        proj = projkit.Projection("qkv", w, plan=missing)
    assert len(proj.warnings) == 1 and missing in proj.warnings[0], proj.warnings
    assert proj.method(8) == "baseline"
    if projkit.plan_file(torch.cuda.get_device_name()) is None:
        pytest.skip(f"no plan file for {torch.cuda.get_device_name()}: its default plan is the safe one")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", projkit.ProjkitWarning)
        assert projkit.Projection("qkv", w).warnings == []


@needs_gpu
def test_bad_input_raises_named_error():
    library_or_skip()
    w = torch.zeros(2304, 8192, device="cuda", dtype=torch.bfloat16)
    proj = projkit.Projection("qkv", w, plan="safe", max_m=4)
    with pytest.raises(projkit.ProjkitError, match="max_m=4"):
        proj(torch.zeros(5, 8192, device="cuda", dtype=torch.bfloat16))
    with pytest.raises(projkit.ProjkitError, match="unknown projection family"):
        projkit.Projection("mlp", w)


@needs_gpu
def test_tensors_that_do_not_fit_the_family_are_refused_before_any_launch():
    """The library sees only pointers: a wrong W, x or out would be read or written past its
    end. The binding refuses each with the violated constraint."""
    library_or_skip()
    n, k = shape("qkv")
    bf16 = dict(device="cuda", dtype=torch.bfloat16)
    with pytest.raises(projkit.ProjkitError, match=r"qkv weight must have shape \[2304, 8192\]"):
        projkit.Projection("qkv", torch.zeros(k, n, **bf16), plan="safe")  # transposed
    with pytest.raises(projkit.ProjkitError, match="qkv weight must be torch.bfloat16"):
        projkit.Projection("qkv", torch.zeros(n, k, device="cuda", dtype=torch.float16), plan="safe")
    with pytest.raises(projkit.ProjkitError, match="router weight must be torch.float32"):
        projkit.Projection("router", torch.zeros(256, 8192, **bf16), plan="safe")
    with pytest.raises(projkit.ProjkitError, match="qkv weight must be a CUDA tensor"):
        projkit.Projection("qkv", torch.zeros(n, k, dtype=torch.bfloat16), plan="safe")
    w = torch.zeros(n, k, **bf16)
    proj = projkit.Projection("qkv", w, plan="safe", max_m=16)
    with pytest.raises(projkit.ProjkitError, match=r"x must have shape \[4, 8192\] \(got \[4, 4096\]\)"):
        proj(torch.zeros(4, 4096, **bf16))
    with pytest.raises(projkit.ProjkitError, match="x must be a 2-D tensor"):
        proj(torch.zeros(2, 2, k, **bf16))
    with pytest.raises(projkit.ProjkitError, match="x must be a CUDA tensor"):
        proj(torch.zeros(4, k, dtype=torch.bfloat16))
    with pytest.raises(projkit.ProjkitError, match="x must be torch.bfloat16"):
        proj(torch.zeros(4, k, device="cuda", dtype=torch.float32))
    with pytest.raises(projkit.ProjkitError, match="x must be contiguous"):
        proj(torch.zeros(k, 4, **bf16).t())
    with pytest.raises(projkit.ProjkitError, match="x must be 16-byte aligned"):
        proj(torch.zeros(4 * k + 1, **bf16)[1:].view(4, k))
    x = torch.zeros(4, k, **bf16)
    with pytest.raises(projkit.ProjkitError, match=r"out must have shape \[4, 2304\] \(got \[3, 2304\]\)"):
        proj(x, out=torch.empty(3, n, **bf16))
    with pytest.raises(projkit.ProjkitError, match="out must be torch.bfloat16"):
        proj(x, out=torch.empty(4, n, device="cuda", dtype=torch.float32))
    # out sharing memory with x or W: refused by the library (no in-place call), nothing written
    buf = torch.zeros(4 * k, **bf16)
    with pytest.raises(projkit.ProjkitError, match="y overlaps x"):
        proj(buf.view(4, k), out=buf[: 4 * n].view(4, n))
    with pytest.raises(projkit.ProjkitError, match="y overlaps the weights"):
        proj(x, out=w.view(-1)[: 4 * n].view(4, n))
    assert int(buf.count_nonzero()) == 0 and int(w.count_nonzero()) == 0


@needs_gpu
@pytest.mark.parametrize("family", ["qkv", "unpooler", "router"])
def test_out_argument_and_zero_rows_behave_as_f_linear(family):
    """m = 0 gives an empty y as F.linear does; out= is written in place, every element (it starts
    NaN-filled, so a row or column left unwritten fails the error bound)."""
    library_or_skip()
    n, k = shape(family)
    g = torch.Generator(device="cuda").manual_seed(7)
    router = family == "router"
    w = seeded_weight(family, g)
    proj = projkit.Projection(family, w)
    empty = proj(torch.empty(0, k, device="cuda", dtype=torch.bfloat16))
    assert empty.shape == (0, 1024 if family == "unpooler" else n) and empty.dtype == w.dtype
    x = torch.randn(5, k, device="cuda", generator=g).to(torch.bfloat16)
    out = torch.full((5, proj.out_cols(5)), float("nan"), device="cuda", dtype=w.dtype)
    y = proj(x, out=out)
    assert y.data_ptr() == out.data_ptr()
    ref = F.linear(x.double(), w[: out.shape[1]].double())
    err = (y.double() - ref).norm() / ref.norm()
    assert err < (1e-4 if router else 1e-2), f"{family} via {proj.method(5)}: rel L2 {err:.2e}"
