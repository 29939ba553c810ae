"""Thin Python binding over projkit's C ABI (include/projkit/projkit.h).

Torch lives only here, at the edge:

    import torch, projkit
    proj = projkit.Projection("qkv", w)          # w: cuda bf16 [2304, 8192], kept alive by proj
    y = proj(x)                                  # x: cuda bf16 [m, 8192] -> y [m, out_cols(m)]

The library is found through $PROJKIT_LIB, else build/libprojkit.so next to this
package's repository checkout.
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path

__all__ = ["Projection", "ProjkitError", "library"]


class ProjkitError(RuntimeError):
    """A projkit call failed; the message names the violated constraint."""


def _find_library() -> str:
    env = os.environ.get("PROJKIT_LIB")
    if env:
        return env
    root = Path(__file__).resolve().parents[2]
    for cand in (root / "build" / "libprojkit.so", Path(__file__).with_name("libprojkit.so")):
        if cand.exists():
            return str(cand)
    raise ProjkitError("libprojkit.so not found: build the project (scripts/setup.sh) or set PROJKIT_LIB")


_lib = None


def library() -> ctypes.CDLL:
    global _lib
    if _lib is None:
        lib = ctypes.CDLL(_find_library())
        lib.pk_last_error.restype = ctypes.c_char_p
        lib.pk_version.restype = ctypes.c_char_p
        lib.pk_projection_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_void_p,
                                             ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
        lib.pk_projection_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                          ctypes.c_void_p]
        lib.pk_projection_shape.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int64),
                                            ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]
        lib.pk_projection_method.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
        lib.pk_projection_destroy.argtypes = [ctypes.c_void_p]
        _lib = lib
    return _lib


# pk_projection_create's flags (include/projkit/projkit.h)
_STRICT_PLAN = 1
_NO_WEIGHT_COPIES = 2


def _check(status: int) -> None:
    if status != 0:
        raise ProjkitError(library().pk_last_error().decode())


class Projection:
    """A built-in family prepared once from its weights; call it with x [m, K] bf16.

    weight_copies=False: the plan's methods that keep a re-laid-out copy of the weights
    (wgmma_tma's k-block slabs, N*K*2 bytes) run as their copy-free twins instead (slower there).
    """

    def __init__(self, family: str, weight, plan: str | None = None, method: str | None = None,
                 max_m: int = 256, strict: bool = False, weight_copies: bool = True):
        import torch  # noqa: F401  (the binding's only torch use is tensor handling)

        if not weight.is_cuda or not weight.is_contiguous():
            raise ProjkitError("weight must be a contiguous CUDA tensor (row-major [N, K])")
        self._weight = weight  # the projection reads it: keep it alive
        self._handle = ctypes.c_void_p()
        _check(library().pk_projection_create(ctypes.byref(self._handle), family.encode(),
                                              ctypes.c_void_p(weight.data_ptr()),
                                              plan.encode() if plan else None,
                                              method.encode() if method else None, max_m,
                                              (_STRICT_PLAN if strict else 0) |
                                              (0 if weight_copies else _NO_WEIGHT_COPIES)))
        self.family = family

    def out_cols(self, m: int) -> int:
        cols, n, k = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
        _check(library().pk_projection_shape(self._handle, m, ctypes.byref(cols), ctypes.byref(n), ctypes.byref(k)))
        return cols.value

    def method(self, m: int) -> str:
        buf = ctypes.create_string_buffer(256)
        _check(library().pk_projection_method(self._handle, m, buf, len(buf)))
        return buf.value.decode()

    def __call__(self, x, out=None):
        import torch

        if x.dim() != 2 or x.dtype != torch.bfloat16 or not x.is_cuda or not x.is_contiguous():
            raise ProjkitError("x must be a contiguous CUDA bf16 tensor [m, K]")
        m = x.shape[0]
        out_dtype = torch.float32 if self._weight.dtype == torch.float32 else torch.bfloat16
        if out is None:
            out = torch.empty((m, self.out_cols(m)), dtype=out_dtype, device=x.device)
        stream = torch.cuda.current_stream(x.device).cuda_stream
        _check(library().pk_projection_run(self._handle, ctypes.c_void_p(x.data_ptr()), m,
                                           ctypes.c_void_p(out.data_ptr()), ctypes.c_void_p(stream)))
        return out

    def __del__(self):
        if getattr(self, "_handle", None) and _lib is not None:
            _lib.pk_projection_destroy(self._handle)
            self._handle = None
