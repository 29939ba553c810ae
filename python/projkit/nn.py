"""projkit as a torch module: the F.linear of one built-in family, for a model's layer.

    import projkit.nn
    layer = projkit.nn.Linear("qkv", w)         # w: cuda bf16 [2304, 8192], kept alive by the layer
    y = layer(x)                                # x: bf16 [..., 8192] -> y [..., out_cols(m)]
    layer = projkit.nn.Linear.from_linear("o", model.o_proj)   # an nn.Linear without bias

What a serving framework's layer needs beyond `projkit.Projection`:
- x may have leading dimensions: m is the number of rows of x once they are flattened.
- Every m runs. For 1 <= m <= max_m the prepared Projection runs (the device's plan); above max_m
  (a prefill, say) the layer runs what the baseline runs, F.linear(x, W) (the router:
  F.linear(x.float(), W)), under the process's own torch settings (TF32 included).
- An x that is not contiguous, or not 16-byte aligned, is copied first (the library reads rows of
  16-byte vectors); pass contiguous, aligned activations to avoid the copy.
- The call is one torch custom op, `torch.ops.projkit.linear`, with a fake (meta) implementation:
  torch.compile(fullgraph=True) traces through it without a graph break, and CUDA graphs capture it
  (the library neither allocates nor synchronises inside a call). Inference only: the op has no
  backward.

Wrong input is refused, never run: an x of another dtype than bf16, on another device than W, or
whose last dimension is not K raises ProjkitError naming the constraint (no fallback hides it).
The layer is prepared once from W's bytes (lossless re-layouts, see README "Memory"): W must stay
alive and unchanged while the layer lives; build a new layer after changing W. One layer runs on
one stream at a time (like a cuBLAS handle); two layers run on two streams at once safely.
"""
import itertools
import weakref

import torch

if not getattr(getattr(torch, "library", None), "custom_op", None):  # added in torch 2.4
    raise ImportError(f"projkit.nn needs torch >= 2.4 (torch.library.custom_op); this is torch {torch.__version__}")

import torch.nn.functional as F  # noqa: E402

from . import Projection, ProjkitError, family_info  # noqa: E402

__all__ = ["Linear"]

# No `from __future__ import annotations` here: torch.library.custom_op reads the op's schema
# from its annotations. The op takes plain tensors and ints, so each live layer's Projection sits
# in this table under an integer key that the op receives; a layer's finalizer removes its entry.
_live: dict[int, tuple[Projection, int]] = {}
_keys = itertools.count(1)


def _baseline(x: torch.Tensor, weight: torch.Tensor, cols: int) -> torch.Tensor:
    """What SGLang runs for this family (README: the baseline), over the rows the family returns."""
    w = weight if cols == weight.shape[0] else weight[:cols]
    return F.linear(x.float() if weight.dtype == torch.float32 else x, w)


@torch.library.custom_op("projkit::linear", mutates_args=())
def _linear_op(x: torch.Tensor, weight: torch.Tensor, key: int) -> torch.Tensor:
    """y [m, out_cols(m)] = x [m, K] W^T through the layer `key`'s Projection (m <= max_m) or the
    baseline (m > max_m). x is contiguous here (Linear.forward); an unaligned x is copied."""
    proj, max_m = _live[key]
    m = x.shape[0]
    if m > max_m:
        return _baseline(x, weight, proj.out_cols(m))
    if x.data_ptr() % 16 != 0:
        x = x.clone()  # a fresh allocation from torch's caching allocator is aligned
    return proj(x)


@_linear_op.register_fake
def _linear_fake(x: torch.Tensor, weight: torch.Tensor, key: int) -> torch.Tensor:
    proj, _ = _live[key]
    # y has W's dtype: bf16 for the dense families, fp32 for the router (F.linear(x.float(), W))
    return x.new_empty((x.shape[0], proj.out_cols(x.shape[0])), dtype=weight.dtype)


class Linear(torch.nn.Module):
    """F.linear's drop-in for one built-in family (qkv, o, pooler, unpooler, router).

    plan, max_m, strict, weight_copies: as for projkit.Projection (plan=None: the device's default
    plan; "serving": its clean-L2 plan; "safe": the baseline everywhere; else a plan file).
    max_m: the largest m the Projection serves; larger m run the baseline (F.linear).
    """

    def __init__(self, family: str, weight: torch.Tensor, *, plan: str | None = None, max_m: int = 256,
                 strict: bool = False, weight_copies: bool = True):
        super().__init__()
        if max_m < 1:
            raise ProjkitError(f"max_m must be >= 1 (got {max_m})")
        info = family_info(family)
        self._proj = Projection(family, weight, plan=plan, max_m=max_m, strict=strict,
                                weight_copies=weight_copies)
        self.family = family
        self.in_features = int(info.k)
        self.out_features = int(info.n)
        self.max_m = max_m
        # Not a Parameter or buffer: the Projection was prepared from these bytes, so moving or
        # loading new values into it would leave the prepared copies stale.
        self._weight = weight
        self._key = next(_keys)
        _live[self._key] = (self._proj, max_m)
        weakref.finalize(self, _live.pop, self._key, None)

    @classmethod
    def from_linear(cls, family: str, module: torch.nn.Linear, **kwargs) -> "Linear":
        """The layer for an existing nn.Linear (its weight is shared, not copied); no bias."""
        if getattr(module, "bias", None) is not None:
            raise ProjkitError(f"{family}: projkit computes y = x W^T only; the nn.Linear's bias must be None")
        return cls(family, module.weight.detach(), **kwargs)

    @property
    def weight(self) -> torch.Tensor:
        return self._weight

    def out_cols(self, m: int) -> int:
        """Columns of y for m rows (the unpooler returns its first 1024 rows' outputs for m <= 8)."""
        return self._proj.out_cols(m)

    def method(self, m: int) -> str:
        """The method that serves m rows: the plan's config, or the baseline above max_m."""
        return self._proj.method(m) if m <= self.max_m else "torch F.linear (m > max_m)"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        k = self.in_features
        if x.dim() < 1 or x.shape[-1] != k:
            raise ProjkitError(f"{self.family}: x's last dimension must be K = {k} (got shape {list(x.shape)})")
        if x.dtype != torch.bfloat16:
            raise ProjkitError(f"{self.family}: x must be torch.bfloat16 (got {x.dtype})")
        if x.device != self._weight.device:
            raise ProjkitError(f"{self.family}: x must be on {self._weight.device}, the weight's device "
                               f"(got {x.device})")
        lead = x.shape[:-1]
        x2 = x.reshape(-1, k)
        if not x2.is_contiguous():
            x2 = x2.contiguous()
        y = torch.ops.projkit.linear(x2, self._weight, self._key)
        return y.reshape(*lead, y.shape[-1])

    def extra_repr(self) -> str:
        return f"family={self.family}, in_features={self.in_features}, out_features={self.out_features}, " \
               f"max_m={self.max_m}"
