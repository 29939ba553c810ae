// tensor_map: see tensor_map.hpp.
#include "kernels/tensor_map.hpp"

#include <cuda_runtime.h>

namespace projkit::tensor_map {

EncodeTiledFn encoder() {
  static EncodeTiledFn fn = []() -> EncodeTiledFn {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess) return nullptr;
    return reinterpret_cast<EncodeTiledFn>(p);
  }();
  return fn;
}

bool encode_2d_bf16_sw128(EncodeTiledFn enc, CUtensorMap* map, const void* ptr, uint64_t rows, uint64_t cols,
                          uint32_t box_rows) {
  constexpr cuuint32_t kBoxCols = 64;  // bf16 per box row: 128 B, the 128B swizzle span
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * 2};
  const cuuint32_t box[2] = {kBoxCols, box_rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  return enc(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(ptr), dims, strides, box, elem_strides,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

bool encode_kslabs_bf16_sw128(EncodeTiledFn enc, CUtensorMap* map, const void* ptr, uint64_t rows, uint64_t cols,
                              uint32_t box_rows) {
  constexpr cuuint32_t kBoxCols = 64;  // bf16 per slab row: 128 B, the 128B swizzle span
  if (cols % kBoxCols != 0) return false;
  const cuuint64_t dims[3] = {kBoxCols, rows, cols / kBoxCols};
  const cuuint64_t strides[2] = {kBoxCols * 2, rows * kBoxCols * 2};  // bytes: a slab row, a slab
  const cuuint32_t box[3] = {kBoxCols, box_rows, 1};
  const cuuint32_t elem_strides[3] = {1, 1, 1};
  return enc(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<void*>(ptr), dims, strides, box, elem_strides,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace projkit::tensor_map
