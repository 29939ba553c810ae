"""projkit.nn.Linear, the torch module over the binding, against torch's F.linear.

Needs torch with a CUDA device and a built libprojkit.so ($PROJKIT_LIB or build/); otherwise the
tests skip with the reason. What a framework's layer relies on: leading dimensions, every m (the
baseline above max_m), strided or unaligned x, the custom op under CUDA-graph capture and
torch.compile(fullgraph=True), and loud refusals of wrong input.
"""
import copy

import pytest

from torch_gpu_common import FAMILIES, library_or_skip, needs_gpu, projkit, seeded_weight, shape, torch

F = torch.nn.functional


def _nn_or_skip():
    library_or_skip()
    from projkit import nn  # torch is present here: the module registers its custom op on import
    return nn


def _weight(family, seed=0):
    return seeded_weight(family, torch.Generator(device="cuda").manual_seed(seed))


def _x(dims, seed=1):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.randn(*dims, device="cuda", generator=g).to(torch.bfloat16)


def _rel_err(y, x2, w):
    ref = F.linear(x2.double(), w[: y.shape[-1]].double())
    return float((y.reshape(ref.shape).double() - ref).norm() / ref.norm())


@needs_gpu
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("lead", [(1,), (2, 3), (4, 5, 6)])
def test_leading_dimensions_flatten_into_m(family, lead):
    nn = _nn_or_skip()
    w = _weight(family)
    layer = nn.Linear(family, w)
    n, k = shape(family)
    x = _x((*lead, k))
    m = x.numel() // k
    y = layer(x)
    assert y.shape == (*lead, layer.out_cols(m)) and y.dtype == w.dtype
    assert layer.out_cols(m) == (1024 if family == "unpooler" and m <= 8 else n)
    err = _rel_err(y, x.reshape(m, k), w)
    assert err < (1e-4 if family == "router" else 1e-2), f"{family} m={m} via {layer.method(m)}: {err:.2e}"


@needs_gpu
@pytest.mark.parametrize("family,max_m,m", [("qkv", 16, 40), ("unpooler", 4, 6), ("unpooler", 4, 300),
                                            ("router", 8, 9)])
def test_above_max_m_runs_the_baseline_exactly(family, max_m, m):
    """m > max_m runs F.linear (the router: on x.float()), bit for bit the baseline's answer, over
    the rows the family returns (the unpooler's 1024 for m <= 8)."""
    nn = _nn_or_skip()
    w = _weight(family)
    layer = nn.Linear(family, w, max_m=max_m)
    x = _x((m, shape(family)[1]))
    assert layer.method(m) == "torch F.linear (m > max_m)"
    assert layer.method(max_m) != layer.method(m)
    cols = layer.out_cols(m)
    want = F.linear(x.float(), w[:cols]) if family == "router" else F.linear(x, w[:cols])
    got = layer(x)
    assert got.shape == (m, cols) and torch.equal(got, want)


@needs_gpu
def test_strided_and_unaligned_x_are_copied_then_run():
    nn = _nn_or_skip()
    w = _weight("qkv")
    layer = nn.Linear("qkv", w)
    k = shape("qkv")[1]
    wide = _x((7, k + 8))
    strided = wide[:, 3:3 + k]                       # rows k + 8 apart: not contiguous
    flat = torch.empty(7 * k + 1, device="cuda", dtype=torch.bfloat16)
    unaligned = flat[1:].view(7, k)                  # contiguous, 2 bytes past an aligned start
    unaligned.copy_(strided)
    assert not strided.is_contiguous() and unaligned.data_ptr() % 16 != 0
    want = layer(strided.contiguous())
    for x in (strided, unaligned):
        y = layer(x)
        assert torch.equal(y, want) or _rel_err(y, x, w) < 1e-2


@needs_gpu
def test_zero_rows_and_from_linear():
    nn = _nn_or_skip()
    n, k = shape("o")
    mod = torch.nn.Linear(k, n, bias=False, device="cuda", dtype=torch.bfloat16)
    layer = nn.Linear.from_linear("o", mod)
    assert layer.weight.data_ptr() == mod.weight.data_ptr()  # shared, not copied
    assert layer(torch.empty(0, k, device="cuda", dtype=torch.bfloat16)).shape == (0, n)
    assert layer(torch.empty(2, 0, k, device="cuda", dtype=torch.bfloat16)).shape == (2, 0, n)
    x = _x((3, k))
    assert _rel_err(layer(x), x, mod.weight.detach()) < 1e-2


@needs_gpu
def test_wrong_input_is_refused_with_the_constraint_named():
    nn = _nn_or_skip()
    n, k = shape("qkv")
    w = _weight("qkv")
    layer = nn.Linear("qkv", w, max_m=8)
    with pytest.raises(projkit.ProjkitError, match=r"qkv: x's last dimension must be K = 8192 \(got shape \[4, 4096\]\)"):
        layer(_x((4, 4096)))
    with pytest.raises(projkit.ProjkitError, match="qkv: x must be torch.bfloat16"):
        layer(torch.zeros(4, k, device="cuda", dtype=torch.float16))
    with pytest.raises(projkit.ProjkitError, match="qkv: x must be torch.bfloat16"):
        layer(torch.zeros(40, k, device="cuda", dtype=torch.float32))  # above max_m too: no fallback
    with pytest.raises(projkit.ProjkitError, match="qkv: x must be on cuda"):
        layer(torch.zeros(4, k, dtype=torch.bfloat16))
    with pytest.raises(projkit.ProjkitError, match="max_m must be >= 1"):
        nn.Linear("qkv", w, max_m=0)
    biased = torch.nn.Linear(k, n, bias=True, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(projkit.ProjkitError, match="qkv: .*bias must be None"):
        nn.Linear.from_linear("qkv", biased)
    with pytest.raises(projkit.ProjkitError, match="cannot be copied"):
        copy.deepcopy(layer)


@needs_gpu
@pytest.mark.parametrize("family,m", [("pooler", 16), ("router", 128), ("unpooler", 8)])
def test_cuda_graph_capture_replays_with_new_inputs(family, m):
    """The module inside torch.cuda.graph: a replay after new x values are copied in gives what an
    eager call on those values gives (the split-K methods reset their own state in the call)."""
    nn = _nn_or_skip()
    w = _weight(family)
    layer = nn.Linear(family, w)
    k = shape(family)[1]
    static_x = _x((m, k), seed=2)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        layer(static_x)  # warm-up off the capture stream, as torch's docs advise
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_y = layer(static_x)
    for seed in (3, 4):
        static_x.copy_(_x((m, k), seed=seed))
        graph.replay()
        torch.cuda.synchronize()
        err = _rel_err(static_y, static_x, w)
        assert err < (1e-4 if family == "router" else 1e-2), f"{family} m={m} replay seed {seed}: {err:.2e}"


@needs_gpu
def test_torch_compile_traces_the_op_without_a_graph_break():
    nn = _nn_or_skip()
    w = _weight("qkv")
    layer = nn.Linear("qkv", w, max_m=64)
    compiled = torch.compile(lambda t: layer(t) * 2, fullgraph=True, dynamic=False)
    for dims in ((2, 3, 8192), (100, 8192)):  # 6 rows: the Projection; 100 > max_m: the baseline
        x = _x(dims)
        y = compiled(x)
        assert y.shape == (*dims[:-1], 2304)
        assert torch.equal(y, layer(x) * 2) or _rel_err(y / 2, x.reshape(-1, 8192), w) < 1e-2
