// kslabs: W's k-block slabs, a lossless re-layout of a bf16 W [N, K] (ledger E65): [K/64][N][64],
// slab kb = columns kb*64 .. kb*64+63 of every row, 128 B per row. The CTAs of a split-K grid
// that load k-block kb at the same time read one contiguous slab instead of N strided pieces.
// Readers: wgmma_tma wsl1 (TMA boxes of a 3D tensor map) and splitk_mma_l2 wsl1 (cp.async, E79).
// One copy per Projection, made by the first reader that asks and shared through
// PrepareContext::layouts (SharedLayouts), so a Projection never holds two.
#pragma once

#include <memory>

#include "core/method.hpp"

namespace projkit::kslabs {

constexpr int kWidth = 64;  // bf16 per slab row: 128 B, the 128B swizzle span of the TMA boxes

// The slab copy of ctx.w (spec.n x spec.k bf16, K % 64 == 0, W 16-byte aligned: checked, throws
// naming `who`), taken from ctx.layouts or, without one, from a SharedLayouts made here; `holder`
// keeps that SharedLayouts (and so the copy) alive as long as the calling method.
const DeviceBuffer& of(const PrepareContext& ctx, std::shared_ptr<SharedLayouts>& holder, const char* who);

}  // namespace projkit::kslabs
