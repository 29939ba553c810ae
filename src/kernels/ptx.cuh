// ptx.cuh: PTX wrappers shared by the kernels (and the lab's floor probe). One
// instruction per function; each comment says why a kernel wants that instruction.
// Kernel-specific wrappers (TMA, wgmma, mbarriers) stay with their kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace projkit::ptx {

// ---------------------------------------------------------------- global loads
// An L2 policy that marks lines first to evict: weights are read exactly once per call,
// so they should not push x (re-read by every CTA) or other tenants out of L2.
__device__ __forceinline__ uint64_t l2_evict_first_policy() {
  uint64_t pol;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
  return pol;
}

// 16-byte streaming load. .nc: the data is read-only for the call; L1::no_allocate: this SM
// never reads it again, so L1 stays for x.
__device__ __forceinline__ uint4 ld_stream(const void* p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

// ld_stream_hint under a guard: no access where `live` is 0, and the 16 bytes stay zero. The guard
// is a predicate in the PTX (the load and the setp that makes its predicate), so the compiler keeps
// the address arithmetic straight-line instead of rebuilding it inside a branch per load, and ptxas
// keeps the predicated loads of a batch together ahead of their uses (gemv_stream lp1, E90: the
// unguarded form had its later loads sunk below the first FMAs).
__device__ __forceinline__ uint4 ld_stream_hint_guarded(const void* p, uint64_t pol, int live) {
  uint4 v = make_uint4(0u, 0u, 0u, 0u);
  asm volatile(
      "{\n\t.reg .pred g;\n\tsetp.ne.s32 g, %4, 0;\n\t"
      "@g ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%5], %6;\n\t}"
      : "+r"(v.x), "+r"(v.y), "+r"(v.z), "+r"(v.w)
      : "r"(live), "l"(p), "l"(pol));
  return v;
}

// ld_stream with an L2 cache policy (l2_evict_first_policy).
__device__ __forceinline__ uint4 ld_stream_hint(const void* p, uint64_t pol) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p), "l"(pol));
  return v;
}

// ld_stream that also asks L2 to fetch the whole 256-byte sector group (fewer DRAM requests
// for a sequential stream).
__device__ __forceinline__ uint4 ld_stream_prefetch256(const void* p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

// 16-byte fp32 load from L2 (.cg: not cached in L1). For split-K partial sums that other CTAs
// combined with red.global.add at L2 during this kernel: L1 is not coherent with those atomics.
__device__ __forceinline__ float4 ld_cg_f4(const float* p) {
  float4 v;
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p)
               : "memory");
  return v;
}

// ---------------------------------------------------------------- async copies to smem
// 16-byte async copy global -> smem, L2 only (.cg: the tile is consumed from smem, L1 would
// only duplicate it). src_bytes < 16 zero-fills the rest without reading it: token rows
// >= m become zeros and nothing is read out of bounds.
__device__ __forceinline__ void cp_async_zfill16(uint32_t dst, const void* src, uint32_t src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(src_bytes));
}

// 16-byte async weight copy global -> smem with an L2 cache policy (evict-first: read once).
__device__ __forceinline__ void cp_async_hint16(uint32_t dst, const void* src, uint64_t pol) {
  asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "l"(pol));
}

// Close the current group of cp.async copies (one group per pipeline stage).
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Wait until at most N groups of this thread are pending (N = 0: all have landed).
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// ---------------------------------------------------------------- tensor cores
// Four 8x8 b16 matrices from smem into mma fragment layout (an A tile 16x16, or the B
// fragments of two n8 token tiles).
__device__ __forceinline__ void ldmatrix_x4(uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3, uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
}

// Two 8x8 b16 matrices: the B fragment of one n8 token tile (8 tokens x 16 k).
__device__ __forceinline__ void ldmatrix_x2(uint32_t& r0, uint32_t& r1, uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(addr));
}

// Four 8x8 b16 matrices from mma fragment layout (thread: row lane/4, columns 2*(lane%4) and +1
// packed low-first in one register) into smem, each stored transposed: memory row j of matrix i
// (address from lane 8i + j, 16-B aligned) receives column j. One instruction parks what takes
// 8 scalar 16-bit stores per thread (sm_90; wgmma_tma's bf16 partial tile, ledger E44).
__device__ __forceinline__ void stmatrix_x4_trans(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0), "r"(r1),
               "r"(r2), "r"(r3)
               : "memory");
}

// D += A(16x16 bf16, row) * B(16x8 bf16, col) with fp32 accumulation (NaN/Inf propagate).
__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                               uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// The same with the A fragment as one 16-byte register quad (fragments loaded pre-packed).
__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const uint4& a, uint32_t b0, uint32_t b1) {
  mma_bf16_16816(d, a.x, a.y, a.z, a.w, b0, b1);
}

// Make this thread's generic-proxy shared-memory writes (st.shared, cp.async after its
// wait_group) visible to the async proxy, which is how wgmma reads its smem operands. Needed
// between filling a wgmma operand tile with ordinary copies and the barrier before the wgmma.
__device__ __forceinline__ void fence_proxy_async_smem() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// Shared-memory address of a generic pointer (what ldmatrix / cp.async take).
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---------------------------------------------------------------- flags between CTAs, named barriers
// Publish a flag after this thread's earlier writes and, through a preceding fence + barrier,
// those of its barrier peers (router in-kernel zeroing: the zeroed y block).
__device__ __forceinline__ void st_release_gpu(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
// Read a flag published by st_release_gpu: later reads and writes of this thread (and, through a
// following barrier, of its barrier peers) are ordered after the writes it covered.
__device__ __forceinline__ unsigned ld_acquire_gpu(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
// Named CTA barrier `id` over `n` threads (a multiple of 32): arrive without waiting ...
__device__ __forceinline__ void bar_arrive_named(int id, int n) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}
// ... or arrive and wait until all n have arrived (memory ordered across the participants).
__device__ __forceinline__ void bar_sync_named(int id, int n) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}

// ---------------------------------------------------------------- split-K and PDL
// Split-K combine: one vector fp32 reduction at L2 for 4 consecutive outputs (sm_90).
__device__ __forceinline__ void red_add_v4(float* p, const float4& v) {
  asm volatile("red.global.add.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
               : "memory");
}

// Split-K combine into a bf16 output: eight bf16 adds at L2 (16 bytes, 4 x bf16x2, sm_90), each
// rounded to bf16 (no flush of subnormals). The order of the adds to one address is not fixed.
__device__ __forceinline__ void red_add_bf16x8(void* p, const uint4& v) {
  asm volatile("red.global.add.noftz.v4.bf16x2 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

// Programmatic dependent launch: block until the preceding kernel has finished and its
// stores are visible (a dependent's first write to what the predecessor wrote).
__device__ __forceinline__ void griddep_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

// Programmatic dependent launch: let the dependent kernel start now, so its loads overlap us.
__device__ __forceinline__ void griddep_launch_dependents() {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

// 1D bulk copy global -> this CTA's smem (cp.async.bulk), completion counted in bytes on the
// mbarrier at smem address `bar`: one instruction moves a whole contiguous tile (no tensor map,
// no per-thread copies). `policy`: an L2 cache policy (evict-first for weights read once).
// Users: router_hilo_ring (packed W tiles), the floor probe's tma_stream.bulk16k variant.
__device__ __forceinline__ void bulk_load(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar,
                                          uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
          dst),
      "l"(src), "r"(bytes), "r"(bar), "l"(policy)
      : "memory");
}

// bulk_load multicast to the CTAs of the cluster in `cta_mask`: the same bytes land at smem
// offset `dst` of each, completion counted on the mbarrier at offset `bar` of each. One L2 read
// feeds every CTA of the mask (E83: the two token slices of a router_hilo_ring K split share W).
__device__ __forceinline__ void bulk_load_multicast(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar,
                                                    uint16_t cta_mask, uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
      " [%0], [%1], %2, [%3], %4, %5;" ::"r"(dst),
      "l"(src), "r"(bytes), "r"(bar), "h"(cta_mask), "l"(policy)
      : "memory");
}

// The SM this thread runs on (%smid; dev probes only: which SMs the stragglers sit on).
__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

// Nanoseconds of the GPU's global timer (stamps builds and dev probes only: phase times across SMs).
__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

}  // namespace projkit::ptx
