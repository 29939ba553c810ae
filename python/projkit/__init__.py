"""Thin Python binding over projkit's C ABI (include/projkit/projkit.h).

Torch lives only here, at the edge:

    import torch, projkit
    proj = projkit.Projection("qkv", w)          # w: cuda bf16 [2304, 8192], kept alive by proj
    y = proj(x)                                  # x: cuda bf16 [m, 8192] -> y [m, out_cols(m)]
    proj(x, out=y)                               # into a given y (checked like x and w)

The library sees only pointers, so the binding checks each tensor's device, shape, dtype,
contiguity and alignment against the family (family_info) and raises ProjkitError naming
the first violated constraint. m = 0 returns an empty y, as F.linear does.

The library is found through $PROJKIT_LIB, else build/libprojkit.so of the checkout this package
lies in, else PREFIX/lib/libprojkit.so of the install it lies in (PREFIX/lib/python/projkit,
`cmake --install`).
"""
from __future__ import annotations

import ctypes
import os
import warnings
from pathlib import Path

__all__ = ["FamilyInfo", "Projection", "ProjkitError", "ProjkitWarning", "families", "family_info", "library",
           "plan_file", "require_tensor"]


class ProjkitError(RuntimeError):
    """A projkit call failed; the message names the violated constraint."""


class ProjkitWarning(UserWarning):
    """A Projection was created with a fallback (no plan file for the device, so the baseline
    everywhere; a plan range the library could not run, so the baseline there): it runs correctly,
    but not as the plan says."""


def _find_library() -> str:
    env = os.environ.get("PROJKIT_LIB")
    if env:
        return env
    root = Path(__file__).resolve().parents[2]  # a checkout's root, or an install's PREFIX/lib
    for cand in (root / "build" / "libprojkit.so", root / "libprojkit.so", Path(__file__).with_name("libprojkit.so")):
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
        lib.pk_projection_method.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
        lib.pk_projection_destroy.argtypes = [ctypes.c_void_p]
        lib.pk_family_info.argtypes = [ctypes.c_char_p, ctypes.POINTER(FamilyInfo)]
        lib.pk_family_count.restype = ctypes.c_int
        lib.pk_family_name.argtypes = [ctypes.c_int]
        lib.pk_family_name.restype = ctypes.c_char_p
        lib.pk_plan_file.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.pk_projection_warning_count.argtypes = [ctypes.c_void_p]
        lib.pk_projection_warning_count.restype = ctypes.c_int
        lib.pk_projection_warning.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.pk_projection_warning.restype = ctypes.c_char_p
        _lib = lib
    return _lib


# pkStatus codes the binding tells apart (include/projkit/projkit.h)
_PLAN_MISMATCH = 3
# pk_projection_create's flags (include/projkit/projkit.h)
_STRICT_PLAN = 1
_NO_WEIGHT_COPIES = 2
# pkFamilyInfo's dtype codes
_DTYPE_BF16 = 0
_DTYPE_F32 = 1


class FamilyInfo(ctypes.Structure):
    """pkFamilyInfo: what a built-in family's W, x and y must be (include/projkit/projkit.h)."""

    _fields_ = [("n", ctypes.c_int64), ("k", ctypes.c_int64), ("weight_dtype", ctypes.c_int32),
                ("out_dtype", ctypes.c_int32), ("slice_max_m", ctypes.c_int32), ("slice_rows", ctypes.c_int64)]

    def out_cols(self, m: int) -> int:
        """Columns of y for m rows (the unpooler returns its first 1024 rows' outputs for m <= 8);
        ProjectionSpec::out_cols's rule: a family without a slice (slice_max_m = 0) returns n."""
        return self.slice_rows if self.slice_max_m > 0 and m <= self.slice_max_m else self.n


def families() -> tuple[str, ...]:
    """The built-in families' names in the library's order (pk_family_count / pk_family_name; no GPU
    needed)."""
    lib = library()
    return tuple(lib.pk_family_name(i).decode() for i in range(lib.pk_family_count()))


def family_info(family: str) -> FamilyInfo:
    """The built-in family's shapes and dtypes (no GPU needed); ProjkitError for an unknown name."""
    info = FamilyInfo()
    _check(library().pk_family_info(family.encode(), ctypes.byref(info)))
    return info


def plan_file(device_name: str, plan_set: str = "") -> str | None:
    """The plan file a Projection on a device of this name (torch.cuda.get_device_name(), e.g.
    "NVIDIA H200") loads for plan=None (plan_set "") or plan="serving" (plan_set "serving"), found
    where the library looks ($PROJKIT_PLAN_DIR, next to the executable, next to libprojkit.so, the
    source tree it was built from); None when there is none, and a Projection there runs the
    baseline everywhere (plan_set ""), or the default plan ("serving"). No GPU needed."""
    buf = ctypes.create_string_buffer(4096)
    status = library().pk_plan_file(device_name.encode(), plan_set.encode(), buf, len(buf))
    if status == _PLAN_MISMATCH:
        return None
    _check(status)
    return buf.value.decode()


def require_tensor(t, what: str, shape, dtype, device=None) -> None:
    """Raise ProjkitError naming the first constraint tensor t violates.

    The library sees only device pointers, so the binding checks what they point at: a CUDA
    tensor of this shape and dtype, contiguous (row-major), 16-byte aligned, and on `device`
    when given. Only the tensor's attributes are read (shape, dtype, device, is_cuda,
    is_contiguous(), data_ptr()).
    """
    if not getattr(t, "is_cuda", False):
        raise ProjkitError(f"{what} must be a CUDA tensor (got one on {getattr(t, 'device', 'the host')})")
    if device is not None and t.device != device:
        raise ProjkitError(f"{what} must be on {device}, the projection's device (got {t.device})")
    if tuple(t.shape) != tuple(shape):
        raise ProjkitError(f"{what} must have shape {list(shape)} (got {list(t.shape)})")
    if t.dtype != dtype:
        raise ProjkitError(f"{what} must be {dtype} (got {t.dtype})")
    if not t.is_contiguous():
        raise ProjkitError(f"{what} must be contiguous (row-major)")
    if t.data_ptr() % 16 != 0:
        raise ProjkitError(f"{what} must be 16-byte aligned (its data pointer is not)")


def _check(status: int) -> None:
    if status != 0:
        raise ProjkitError(library().pk_last_error().decode())


class Projection:
    """A built-in family prepared once from its weights; call it with x [m, K] bf16.

    plan: None = the device's default plan (tuned under the judge's write flush); "serving" = its
    serving plan (tuned with a clean L2, the state a serving process usually leaves; the default
    plan where the device has none, or an error with strict=True); "safe" = the baseline
    everywhere; otherwise a plan file.
    weight_copies=False: the plan's methods that keep a re-laid-out copy of the weights
    (wgmma_tma's k-block slabs, N*K*2 bytes) run as their copy-free twins instead (slower there).
    """

    def __init__(self, family: str, weight, plan: str | None = None, method: str | None = None,
                 max_m: int = 256, strict: bool = False, weight_copies: bool = True):
        import torch  # the binding's only torch use is tensor handling

        info = family_info(family)
        dtypes = {_DTYPE_BF16: torch.bfloat16, _DTYPE_F32: torch.float32}
        require_tensor(weight, f"{family} weight", (info.n, info.k), dtypes[info.weight_dtype])
        self._info = info
        self._out_dtype = dtypes[info.out_dtype]
        self._weight = weight  # the projection reads it: keep it alive
        self._handle = ctypes.c_void_p()
        with torch.cuda.device(weight.device):  # the library prepares on the current device
            _check(library().pk_projection_create(ctypes.byref(self._handle), family.encode(),
                                                  ctypes.c_void_p(weight.data_ptr()),
                                                  plan.encode() if plan else None,
                                                  method.encode() if method else None, max_m,
                                                  (_STRICT_PLAN if strict else 0) |
                                                  (0 if weight_copies else _NO_WEIGHT_COPIES)))
        self.family = family
        lib = library()
        #: What creation fell back on (pk_projection_warning); each was also issued as a ProjkitWarning.
        self.warnings = [lib.pk_projection_warning(self._handle, i).decode()
                         for i in range(lib.pk_projection_warning_count(self._handle))]
        for w in self.warnings:
            warnings.warn(f"projkit {family}: {w}", ProjkitWarning, stacklevel=2)

    def out_cols(self, m: int) -> int:
        """Columns of y for m rows (the family's rule, family_info)."""
        return self._info.out_cols(m)

    def method(self, m: int) -> str:
        buf = ctypes.create_string_buffer(256)
        _check(library().pk_projection_method(self._handle, m, buf, len(buf)))
        return buf.value.decode()

    def __call__(self, x, out=None):
        """y = x W^T for x [m, K] bf16 (m may be 0, as for F.linear); into `out` when given."""
        import torch

        if getattr(x, "dim", lambda: -1)() != 2:
            raise ProjkitError(f"x must be a 2-D tensor [m, {self._info.k}] (got shape {list(getattr(x, 'shape', []))})")
        m = x.shape[0]
        device = self._weight.device
        require_tensor(x, "x", (m, self._info.k), torch.bfloat16, device)
        shape = (m, self._info.out_cols(m))
        if out is None:
            out = torch.empty(shape, dtype=self._out_dtype, device=device)
        else:
            require_tensor(out, "out", shape, self._out_dtype, device)
        if m == 0:
            return out  # nothing to compute; the library's m starts at 1
        with torch.cuda.device(device):  # the library launches on the current device
            stream = torch.cuda.current_stream(device).cuda_stream
            _check(library().pk_projection_run(self._handle, ctypes.c_void_p(x.data_ptr()), m,
                                               ctypes.c_void_p(out.data_ptr()), ctypes.c_void_p(stream)))
        return out

    def __copy__(self):
        # A shallow copy would share the handle, and the second __del__ would destroy it again.
        raise ProjkitError(f"{self.family}: a Projection owns its prepared handle and cannot be copied; "
                           "create another one from the weights")

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __del__(self):
        if getattr(self, "_handle", None) and _lib is not None:
            _lib.pk_projection_destroy(self._handle)
            self._handle = None
