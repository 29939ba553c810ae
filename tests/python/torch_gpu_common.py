"""What the torch GPU test files share: the five built-in families, their (N, K) from the library
itself (projkit.family_info), and the skips. Importing it skips the importing test file when torch
is missing, as pytest.importorskip does.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import projkit  # noqa: E402

torch = pytest.importorskip("torch")

needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device visible to torch")

# Listed here rather than taken from projkit.families(): the GPU tests are parametrized at
# collection, before library_or_skip can skip a run without the library, and this list is the
# tests' own (test_binding_checks checks the library's list against it).
FAMILIES = ("qkv", "o", "pooler", "unpooler", "router")


def library_or_skip():
    """Skip the calling test when libprojkit.so ($PROJKIT_LIB or build/) cannot be loaded."""
    try:
        projkit.library()
    except (projkit.ProjkitError, OSError) as e:
        pytest.skip(f"libprojkit.so not loadable: {e}")


def shape(family):
    """(N, K) of a built-in family's W, as the library defines it (call after library_or_skip)."""
    info = projkit.family_info(family)
    return info.n, info.k


def seeded_weight(family, g):
    """W [N, K] of a built-in family drawn from the CUDA generator g: randn / sqrt(K), fp32 for the
    router, bf16 for the dense families."""
    n, k = shape(family)
    return (torch.randn(n, k, device="cuda", generator=g) / k ** 0.5).to(
        torch.float32 if family == "router" else torch.bfloat16)
