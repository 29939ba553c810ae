// tensor_map: the host side of TMA shared by the kernels that load through tensor maps
// (wgmma_tma, router_hilo_ring): the driver's encoder, reached through the runtime's
// entry-point query so the library need not link libcuda, and the one map shape they use.
#pragma once

#include <cuda.h>          // CUtensorMap
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <cstdint>

namespace projkit::tensor_map {

using EncodeTiledFn = PFN_cuTensorMapEncodeTiled_v12000;

// cuTensorMapEncodeTiled of the installed driver; null when the driver does not provide it.
EncodeTiledFn encoder();

// A 2D bf16 tensor [rows][cols] (cols contiguous, 16-byte aligned) read in boxes of
// [box_rows][64] (64 bf16 = 128 B, one swizzle span) with the 128B swizzle the wgmma smem
// descriptors expect; rows past `rows` read as zeros. False when the driver refuses the map.
bool encode_2d_bf16_sw128(EncodeTiledFn enc, CUtensorMap* map, const void* ptr, uint64_t rows, uint64_t cols,
                          uint32_t box_rows);

// The same tiles of a bf16 W [rows][cols] copied as k-block slabs [cols / 64][rows][64] (slab kb
// holds columns kb*64 .. kb*64+63 of every row, 128 B per row), mapped as the 3D tensor (64, rows,
// cols / 64) with boxes (64, box_rows, 1) and the 128B swizzle: the box at (0, r, kb) lands in smem
// exactly as the 2D box at (kb*64, r) of W would. `ptr` is the slab copy (wgmma_tma wsl1, ledger E65).
bool encode_kslabs_bf16_sw128(EncodeTiledFn enc, CUtensorMap* map, const void* ptr, uint64_t rows, uint64_t cols,
                              uint32_t box_rows);

}  // namespace projkit::tensor_map
