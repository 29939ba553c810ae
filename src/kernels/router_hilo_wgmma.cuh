// router_hilo_wgmma device code: see router_hilo_wgmma.cu for the regime and the host launcher.
//
// One CTA = 2 warpgroups (256 threads), K range [k0, k0 + kc) of the packed hi/lo weights
// (router_hilo_pack.cuh) and the tokens of its slice (the wgmma N, TN >= the slice's tokens,
// zero-filled past them; ts = gridDim.z slices of ceil(m / ts) tokens, blockIdx.z picks one):
//   wgn = 2: the warpgroups own neighbouring 64-row tiles and the whole K range (x shared);
//   wgn = 1: they own the same 64-row tile and one half of the K range each (summed in smem).
// Per warpgroup: y^T[64 rows][TN tokens] += W_hi * x^T + W_lo * x^T on
//   wgmma.mma_async.m64nTNk16 with A = W from registers (the packed mma.sync A fragments ARE the
//   wgmma A register fragments: warp w of the warpgroup holds rows 16w..16w+15 of the m64k16 tile
//   in the m16n8k16 A layout, so warp w loads 16-row tile 4*rt + w) and B = x from smem through a
//   K-major 128B-swizzle descriptor, fp32 accumulators in registers.
// W streams straight from global into a 2-deep register ring of 64-K chunks (4 k16 steps x hi/lo
// = 8 x 16 B per lane = 16 KB per warpgroup); a chunk's registers are refilled once the wgmma
// group that read them has retired (wgmma.wait_group 0). With 2 chunks per warpgroup (the
// 128-CTA configs) every weight load of the CTA is issued at kernel start.
// x: the CTA's [TN][kc] slice lands once by cp.async (two commit groups: first / second half of
// every warpgroup's chunks, so the first half of the wgmma work starts while the second half of
// x is still arriving), stored as kc/64 blocks of [TN rows][128 B] with the 128B swizzle (16-B
// piece p of row t at piece p ^ (t & 7)), each block 1024-B aligned.
// Epilogue: fp32 partials -> smem P[warpgroup][token][64 (+4 pad)] (aliasing the dead x tile),
// then per (token, 4 rows): sum of the wgk = 2/wgn K parts in fixed order and one
// red.global.add.v4.f32 into y (zeroed by the PDL predecessor; griddepcontrol.wait first).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "kernels/ptx.cuh"
#include "kernels/wgmma_tma.cuh"  // desc_k_sw128, wgmma_fence / commit / wait, fence_reg

namespace projkit::router_wgmma {

constexpr int kWarpgroups = 2;               // per CTA
constexpr int kThreads = 128 * kWarpgroups;  // 256
constexpr int kRows = 64;                    // W rows per warpgroup = the wgmma M
constexpr int kChunkK = 64;                  // K per register chunk = one 128-B swizzle row of x
constexpr int kStepsPerChunk = kChunkK / 16; // k16 steps (wgmma pairs hi/lo) per chunk
constexpr int kFragBytes = 1024;             // one packed 16x16 tile: hi (512 B) + lo (512 B)
constexpr int kPStride = kRows + 4;          // fp32 per token row of a partial tile; +4 makes the
                                             // fragment stores hit 32 distinct banks
static_assert(kChunkK * 2 == 128, "a chunk row of x must be exactly one 128B swizzle span");

__host__ __device__ constexpr int x_tile_bytes(int tn, int kc) { return tn * kc * 2; }           // bf16 [TN][kc]
__host__ __device__ constexpr int partial_bytes(int tn) { return kWarpgroups * tn * kPStride * 4; }  // fp32
// [<= 1 KB alignment slack][x tile, later aliased by the partial tiles]
__host__ __device__ constexpr int smem_bytes(int tn, int kc) {
  return 1024 + (x_tile_bytes(tn, kc) > partial_bytes(tn) ? x_tile_bytes(tn, kc) : partial_bytes(tn));
}

// ------------------------------------------------------------------ PTX wrappers
// wgmma.mma_async m64nNk16, bf16 x bf16 -> fp32, A from registers (the "RS" form: the weights
// never touch smem), B K-major from smem, D += A * B^T, no transposes.
// A fragment (per thread, warp w, lane l; g = l/4, tq = l%4), as mma.sync m16n8k16:
//   a.x = A[16w+g][2tq..+1], a.y = A[16w+g+8][2tq..+1], a.z = A[16w+g][2tq+8..+9], a.w = A[16w+g+8][2tq+8..+9]
// Accumulator fragment, for q in [0, N/8): d[4q + 2h + b] = D[16w + g + 8h][8q + 2tq + b].
// The A registers and d must not be touched until a wgmma_wait retires the group.
template <int N> __device__ __forceinline__ void wgmma_rs_m64k16(float (&d)[N / 2], const uint4& a, uint64_t b);

// D[64 x 64] += A[64 x 16] (registers) * B[64 x 16]^T (K-major smem descriptor), fp32 D in registers.
template <> __device__ __forceinline__ void wgmma_rs_m64k16<64>(float (&d)[32], const uint4& a, uint64_t b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "l"(b), "r"(1));
}

// D[64 x 128] += A[64 x 16] (registers) * B[128 x 16]^T (K-major smem descriptor), fp32 D in registers.
template <> __device__ __forceinline__ void wgmma_rs_m64k16<128>(float (&d)[64], const uint4& a, uint64_t b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "l"(b), "r"(1));
}

// D[64 x 192] += A[64 x 16] (registers) * B[192 x 16]^T (K-major smem descriptor), fp32 D in registers.
template <> __device__ __forceinline__ void wgmma_rs_m64k16<192>(float (&d)[96], const uint4& a, uint64_t b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %101, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95}, {%96, %97, %98, %99}, %100, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "l"(b), "r"(1));
}

// D[64 x 256] += A[64 x 16] (registers) * B[256 x 16]^T (K-major smem descriptor), fp32 D in registers.
template <> __device__ __forceinline__ void wgmma_rs_m64k16<256>(float (&d)[128], const uint4& a, uint64_t b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, {%128, %129, %130, %131}, %132, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "l"(b), "r"(1));
}

// Compiler-only fence on an A fragment register (keeps its refill after the wgmma_wait that
// retires the wgmma reading it, and its use after the load).
__device__ __forceinline__ void fence_frag(uint4& r) {
  asm volatile("" : "+r"(r.x), "+r"(r.y), "+r"(r.z), "+r"(r.w)::"memory");
}

// ------------------------------------------------------------------ kernel pieces
// Load one 64-K chunk of a warpgroup's W fragments into registers: k16 steps s0..s0+3 of the
// 16-row tile `tile` (this warp's), hi and lo, 8 x 16 B per lane, all in flight at once.
__device__ __forceinline__ void load_w_chunk(uint4 (&hi)[kStepsPerChunk], uint4 (&lo)[kStepsPerChunk],
                                             const uint8_t* __restrict__ wp, int s0, int tile, int n16_all,
                                             int lane) {
  const uint8_t* base = wp + (int64_t(s0) * n16_all + tile) * kFragBytes + lane * 16;
#pragma unroll
  for (int s = 0; s < kStepsPerChunk; ++s) {
    hi[s] = ptx::ld_stream(base + int64_t(s) * n16_all * kFragBytes);
    lo[s] = ptx::ld_stream(base + int64_t(s) * n16_all * kFragBytes + 512);
  }
}

// ------------------------------------------------------------------ kernel
// Template parameter TN: tokens per CTA = the wgmma N (64, 128, 192 or 256); m <= TN.
// Runtime: kc = K per CTA (grid.x = K / kc splits), wgn = 64-row tiles per CTA (1 or 2; the
// host guarantees kc % (128 * 2/wgn) == 0, N % (64 * wgn) == 0, K % 16 == 0, ceil(m / ts) in
// 1..TN); gridDim.z = ts token slices.
template <int TN>
__global__ void __launch_bounds__(kThreads, 1)
    router_hilo_wgmma_kernel(const __nv_bfloat16* __restrict__ x,  // [m][k] bf16, 16-B aligned rows
                             const uint8_t* __restrict__ wp,       // packed hi/lo fragments of W [n][k]
                             float* __restrict__ y,                // [m][n] fp32, zeroed by the predecessor
                             int m, int n, int k, int kc, int wgn) {
  static_assert(TN % 64 == 0 && TN >= 64 && TN <= 256, "TN is the wgmma N: a multiple of 64 up to 256 here");
  static_assert((TN * 128) % 1024 == 0, "each [TN][128 B] x block keeps the 1024-B swizzle-atom alignment");
  static_assert(kThreads % 8 == 0 && kStepsPerChunk == 4, "chunk = 4 k16 steps");
  constexpr int kAcc = TN / 2;  // fp32 accumulators per thread: [64 rows][TN tokens] / 128 threads

  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = ptx::smem_addr(smem_raw);
  const uint32_t xs = (raw + 1023u) & ~1023u;  // x tile: [kc/64 blocks][TN rows][128 B], swizzled

  // Token slice of this CTA: rows [t0, t0 + mt) of x and y (the ts slices split M instead of K,
  // so an output gets K / kc partials: fewer atomics per address for the same 128 CTAs, at the
  // price of every slice re-reading the CTA's W range, mostly from L2).
  if (gridDim.z > 1) {
    const int mt = (m + int(gridDim.z) - 1) / int(gridDim.z), t0 = int(blockIdx.z) * mt;
    if (t0 >= m) return;  // an empty slice (m < ts): no atomics, nothing to wait for
    x += int64_t(t0) * k;
    y += int64_t(t0) * n;
    m = min(mt, m - t0);
  }

  const int tid = int(threadIdx.x);
  const int wg = tid / 128, warp = (tid / 32) & 3, lane = tid & 31;
  const int wgk = kWarpgroups / wgn;      // warpgroups along K
  const int rt = int(blockIdx.y) * wgn + wg % wgn;  // this warpgroup's 64-row tile
  const int kpart = wg / wgn;             // this warpgroup's K part of the CTA range
  const int k0 = int(blockIdx.x) * kc;    // CTA K range [k0, k0 + kc)
  const int nch = kc / (wgk * kChunkK);   // chunks per warpgroup (even, >= 2)
  const int half = nch / 2;
  const int n16_all = n / 16;
  const int s_begin = (k0 + kpart * (kc / wgk)) / 16;  // first k16 step of this warpgroup

  // W register ring: chunks 0 and 1 in flight first (they come from DRAM, x mostly from L2).
  uint4 hi0[kStepsPerChunk], lo0[kStepsPerChunk], hi1[kStepsPerChunk], lo1[kStepsPerChunk];
  load_w_chunk(hi0, lo0, wp, s_begin, rt * 4 + warp, n16_all, lane);
  load_w_chunk(hi1, lo1, wp, s_begin + kStepsPerChunk, rt * 4 + warp, n16_all, lane);

  // x slice -> smem. Commit group g holds, for every K part, its chunks [g*half, (g+1)*half).
  // Rows t >= m are zero-filled without a global read.
  {
    constexpr int kPieces = TN * 8;  // 16-B pieces per [TN][128 B] block
    const int blocks_per_group = wgk * half;
    for (int grp = 0; grp < 2; ++grp) {
      for (int i = tid; i < blocks_per_group * kPieces; i += kThreads) {
        const int j = i / kPieces, r = i % kPieces;
        const int gc = (j / half) * nch + grp * half + j % half;  // block index in the CTA range
        const int t = r >> 3, p = r & 7;
        const bool live = t < m;
        const __nv_bfloat16* src = live ? x + int64_t(t) * k + k0 + gc * kChunkK + p * 8 : x;
        ptx::cp_async_zfill16(xs + uint32_t(gc * TN * 128 + t * 128 + ((p ^ (t & 7)) << 4)), src, live ? 16u : 0u);
      }
      ptx::cp_async_commit();
    }
  }

  float acc[kAcc];  // D[64 rows][TN tokens] fragment, see wgmma_rs_m64k16
#pragma unroll
  for (int i = 0; i < kAcc; ++i) acc[i] = 0.0f;

  // One chunk: 4 k16 steps x (hi, lo) wgmmas into the same accumulators, then retire them all
  // (frees the chunk's A registers for the refill; the other chunk's loads stay in flight).
  auto mma_chunk = [&](uint4 (&hi)[kStepsPerChunk], uint4 (&lo)[kStepsPerChunk], int cc) {
    if (cc == 0 || cc == half) {  // first use of commit group 0 / 1 (uniform over the CTA)
      if (cc == 0)
        ptx::cp_async_wait<1>();
      else
        ptx::cp_async_wait<0>();
      ptx::fence_proxy_async_smem();  // this thread's x copies -> visible to wgmma (async proxy)
      __syncthreads();                // ... and every other thread's
    }
    const uint32_t xb = xs + uint32_t((kpart * nch + cc) * TN * 128);
#pragma unroll
    for (int i = 0; i < kAcc; ++i) wgmma_tma::fence_reg(acc[i]);
#pragma unroll
    for (int s = 0; s < kStepsPerChunk; ++s) {
      fence_frag(hi[s]);
      fence_frag(lo[s]);
    }
    wgmma_tma::wgmma_fence();  // A registers were just written by loads
#pragma unroll
    for (int s = 0; s < kStepsPerChunk; ++s) {
      const uint64_t bdesc = wgmma_tma::desc_k_sw128(xb + 32u * uint32_t(s));  // k16 step s: +32 B in the row
      wgmma_rs_m64k16<TN>(acc, hi[s], bdesc);
      wgmma_rs_m64k16<TN>(acc, lo[s], bdesc);
    }
    wgmma_tma::wgmma_commit();
    wgmma_tma::wgmma_wait<0>();
#pragma unroll
    for (int i = 0; i < kAcc; ++i) wgmma_tma::fence_reg(acc[i]);
#pragma unroll
    for (int s = 0; s < kStepsPerChunk; ++s) {
      fence_frag(hi[s]);
      fence_frag(lo[s]);
    }
  };

  for (int c = 0; c < nch; c += 2) {
    mma_chunk(hi0, lo0, c);
    if (c + 2 < nch) load_w_chunk(hi0, lo0, wp, s_begin + (c + 2) * kStepsPerChunk, rt * 4 + warp, n16_all, lane);
    mma_chunk(hi1, lo1, c + 1);
    if (c + 3 < nch) load_w_chunk(hi1, lo1, wp, s_begin + (c + 3) * kStepsPerChunk, rt * 4 + warp, n16_all, lane);
  }

  // Both warpgroups have retired all their wgmmas: the x tile is dead, reuse it for the
  // partials P[wg][t][kPStride] (fp32, rows of this warpgroup fastest).
  __syncthreads();
  float* P = reinterpret_cast<float*>(smem_raw + (xs - raw));
  {
    const int nl = warp * 16 + (lane >> 2), t2 = 2 * (lane & 3);
    wgmma_tma::park_acc_transposed<TN>(P + wg * TN * kPStride, acc, nl, t2, m, kPStride);  // tokens past m: skipped
  }
  __syncthreads();

  // y[t][row0 + 4c .. +3] += sum over the wgk K parts (fixed order) of P[kpart*wgn + r][t][..].
  ptx::griddep_wait();  // y zeroed and visible
  const int f4_per_t = 16 * wgn;  // float4 per token of this CTA's 64*wgn rows
  const int row0 = int(blockIdx.y) * wgn * kRows;
  for (int f = tid; f < m * f4_per_t; f += kThreads) {
    const int t = f / f4_per_t, c4 = f % f4_per_t;
    const int r = c4 >> 4, col = (c4 & 15) * 4;
    float4 sum = *reinterpret_cast<const float4*>(P + (r * TN + t) * kPStride + col);
    for (int kp = 1; kp < wgk; ++kp) {
      const float4 v = *reinterpret_cast<const float4*>(P + ((kp * wgn + r) * TN + t) * kPStride + col);
      sum.x += v.x; sum.y += v.y; sum.z += v.z; sum.w += v.w;
    }
    ptx::red_add_v4(y + int64_t(t) * n + row0 + r * kRows + col, sum);
  }
}

}  // namespace projkit::router_wgmma
