"""The binding's input checks, without torch or a GPU: pk_family_info through ctypes, and
require_tensor on stand-in tensors (only the attributes it reads).

The library sees only device pointers, so a wrong shape, dtype, device or layout has to be
caught here, before a kernel reads past W or x or writes past y.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import projkit  # noqa: E402


def _library_or_skip():
    try:
        projkit.library()
    except (projkit.ProjkitError, OSError) as e:
        pytest.skip(f"libprojkit.so not loadable: {e}")


class FakeTensor:
    """What require_tensor reads of a torch tensor."""

    def __init__(self, shape, dtype="bf16", device="cuda:0", contiguous=True, ptr=4096):
        self.shape, self.dtype, self.device = tuple(shape), dtype, device
        self.is_cuda = device.startswith("cuda")
        self._contiguous, self._ptr = contiguous, ptr

    def is_contiguous(self):
        return self._contiguous

    def data_ptr(self):
        return self._ptr


def test_family_info_matches_the_builtin_families():
    _library_or_skip()
    expect = {"qkv": (2304, 8192, 0), "o": (8192, 1024, 0), "pooler": (4096, 8192, 0),
              "unpooler": (8192, 4096, 0), "router": (256, 8192, 1)}
    for family, (n, k, dt) in expect.items():
        info = projkit.family_info(family)
        assert (info.n, info.k, info.weight_dtype, info.out_dtype) == (n, k, dt, dt), family
    unpooler = projkit.family_info("unpooler")
    assert [unpooler.out_cols(m) for m in (0, 1, 8, 9, 256)] == [1024, 1024, 1024, 8192, 8192]
    for family, (n, _, _) in expect.items():  # no slice: n at every m, m = 0 included
        if family != "unpooler":
            assert [projkit.family_info(family).out_cols(m) for m in (0, 1, 256)] == [n] * 3, family
    with pytest.raises(projkit.ProjkitError, match="unknown projection family 'mlp'"):
        projkit.family_info("mlp")


def test_families_lists_the_builtin_families_in_order():
    _library_or_skip()
    # This file's own list, not the library's: a family dropped or renamed must fail here.
    assert projkit.families() == ("qkv", "o", "pooler", "unpooler", "router")
    lib = projkit.library()
    assert lib.pk_family_name(lib.pk_family_count()) is None
    assert b"is outside [0, 5)" in lib.pk_last_error()


def test_require_tensor_accepts_a_matching_tensor():
    projkit.require_tensor(FakeTensor((8, 8192)), "x", (8, 8192), "bf16", "cuda:0")
    projkit.require_tensor(FakeTensor((0, 8192)), "x", (0, 8192), "bf16")


@pytest.mark.parametrize("tensor,message", [
    (FakeTensor((8, 8192), device="cpu"), "x must be a CUDA tensor"),
    (FakeTensor((8, 8192), device="cuda:1"), "x must be on cuda:0"),
    (FakeTensor((8, 4096)), r"x must have shape \[8, 8192\] \(got \[8, 4096\]\)"),
    (FakeTensor((8, 8192, 1)), "x must have shape"),
    (FakeTensor((8, 8192), dtype="f16"), "x must be bf16 \\(got f16\\)"),
    (FakeTensor((8, 8192), contiguous=False), "x must be contiguous"),
    (FakeTensor((8, 8192), ptr=4098), "x must be 16-byte aligned"),
])
def test_require_tensor_names_the_violated_constraint(tensor, message):
    with pytest.raises(projkit.ProjkitError, match=message):
        projkit.require_tensor(tensor, "x", (8, 8192), "bf16", "cuda:0")


def test_a_projection_refuses_to_be_copied():
    """A copy would share the prepared handle, and both objects' __del__ would destroy it: a double
    free. copy.copy and copy.deepcopy refuse instead (checked on an instance without a handle)."""
    import copy

    proj = object.__new__(projkit.Projection)
    proj.family, proj._handle = "qkv", None
    for copier in (copy.copy, copy.deepcopy):
        with pytest.raises(projkit.ProjkitError, match="qkv: a Projection owns its prepared handle"):
            copier(proj)


def test_the_torch_module_names_the_torch_it_needs(monkeypatch):
    """projkit.nn registers a torch custom op (torch >= 2.4): an older torch gets an ImportError
    naming the version needed, not an AttributeError from inside torch (a stand-in torch here)."""
    import importlib
    import types

    old_torch = types.ModuleType("torch")
    old_torch.__version__ = "2.3.1"
    old_torch.library = types.SimpleNamespace()  # no custom_op
    monkeypatch.setitem(sys.modules, "torch", old_torch)
    monkeypatch.delitem(sys.modules, "projkit.nn", raising=False)
    with pytest.raises(ImportError, match=r"projkit.nn needs torch >= 2.4 .*this is torch 2.3.1"):
        importlib.import_module("projkit.nn")
