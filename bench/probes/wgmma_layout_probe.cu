// Probe of the wgmma operand conventions that the sm_90a backward kernel
// (lib/Conversion/AttnToGPU/WarpgroupMma.cpp) relies on. Shared-memory
// tiles use the no-swizzle core-matrix layout: element (r, c) of an [R][C]
// tile is at byte
//   (r / 8) * 16 C + (c / 8) * 128 + (r % 8) * 16 + (c % 8) * 2.
// Such a tile is read K-major (K = C: LBO = 128, SBO = 16 C) or MN-major
// (MN = C, K = R, with the transposed flag: LBO = 16 C along K, SBO = 128
// along MN); A can also come from registers in the mma.sync m16n8k16 A
// layout. The probe checks each form against a host product of small
// integers, which are exact in bf16 and f32.
// On the H200 (2026-11-30) modes 0, 1 and 3 matched. The swapped MN-major
// assignment (LBO = 128, SBO = 16 C; modes 2 and 4) read past the tile and
// faulted, so the loop below leaves them out.
//   nvcc -gencode=arch=compute_90a,code=sm_90a wgmma_layout_probe.cu
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>

__device__ uint64_t desc(const void *p, uint32_t lbo, uint32_t sbo) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(p));
  return uint64_t((a & 0x3FFFF) >> 4) | (uint64_t(lbo >> 4) << 16) |
         (uint64_t(sbo >> 4) << 32);
}
__device__ int blk(int r, int c, int C) {
  return (r / 8) * 8 * C + (c / 8) * 64 + (r % 8) * 8 + (c % 8);
}

#include "wgmma_probe_regs.h"

// mode 0: SS, A [M][K] K-major, B [N][K] K-major.
// mode 1/2: RS, B stored [K][N] MN-major, (lbo,sbo) = (16C,128) / (128,16C).
// mode 3/4: SS, A stored [K][M], B stored [K][N], both MN-major, same pairs.
__global__ void probe(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                      float *C, int mode) {
  constexpr int M = 64, N = 64, K = 32;
  __shared__ __align__(128) __nv_bfloat16 sa[M * K], sb[N * K];
  int tid = threadIdx.x;
  bool aT = mode >= 3, bT = mode >= 1;
  // Host A is [M][K], host B is [K][N] row-major.
  for (int i = tid; i < M * K; i += 128) {
    int m = i / K, k = i % K;
    if (aT) sa[blk(k, m, M)] = A[i]; else sa[blk(m, k, K)] = A[i];
  }
  for (int i = tid; i < K * N; i += 128) {
    int k = i / N, n = i % N;
    if (bT) sb[blk(k, n, N)] = B[i]; else sb[blk(n, k, K)] = B[i];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  float d[32];
  for (int i = 0; i < 32; ++i) d[i] = 0.f;
  int warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  bool h1 = (mode == 1 || mode == 3);
  uint32_t bl = bT ? (h1 ? 16 * N : 128) : 128, bs = bT ? (h1 ? 128 : 16 * N) : 16 * K;
  uint32_t al = aT ? (h1 ? 16 * M : 128) : 128, as = aT ? (h1 ? 128 : 16 * M) : 16 * K;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  for (int ks = 0; ks < K / 16; ++ks) {
    // K step of 16: K-major advances 2 core matrices (256 B); MN-major
    // advances 2 row blocks (2 * 16 C bytes).
    const void *pa = aT ? (const void *)(sa + 16 * ks * M) : (const void *)(sa + 16 * ks * 8);
    const void *pb = bT ? (const void *)(sb + 16 * ks * N) : (const void *)(sb + 16 * ks * 8);
    uint64_t db = desc(pb, bl, bs);
    if (mode == 1 || mode == 2) {
      uint32_t a[4];
      int r0 = 16 * warp + g;
      auto pack = [&](int r, int c) {
        __nv_bfloat16 lo = A[r * K + c], hi = A[r * K + c + 1];
        return uint32_t(__bfloat16_as_ushort(lo)) |
               (uint32_t(__bfloat16_as_ushort(hi)) << 16);
      };
      a[0] = pack(r0, 16 * ks + 2 * t);
      a[1] = pack(r0 + 8, 16 * ks + 2 * t);
      a[2] = pack(r0, 16 * ks + 8 + 2 * t);
      a[3] = pack(r0 + 8, 16 * ks + 8 + 2 * t);
      asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " REGS32
                   ", {%32,%33,%34,%35}, %36, 1, 1, 1, 1;\n"
                   : WG_ACC32
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
    } else {
      uint64_t da = desc(pa, al, as);
      if (mode == 0)
        asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " REGS32
                     ", %32, %33, 1, 1, 1, 0, 0;\n"
                     : WG_ACC32 : "l"(da), "l"(db));
      else
        asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " REGS32
                     ", %32, %33, 1, 1, 1, 1, 1;\n"
                     : WG_ACC32 : "l"(da), "l"(db));
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  for (int nt = 0; nt < N / 8; ++nt)
    for (int e = 0; e < 4; ++e) {
      int r = 16 * warp + g + 8 * (e / 2), c = 8 * nt + 2 * t + e % 2;
      C[r * N + c] = d[4 * nt + e];
    }
}

int main() {
  constexpr int M = 64, N = 64, K = 32;
  __nv_bfloat16 hA[M * K], hB[K * N];
  float fA[M * K], fB[K * N], ref[M * N], out[M * N];
  srand(7);
  for (int i = 0; i < M * K; ++i) { fA[i] = float(rand() % 9 - 4); hA[i] = __float2bfloat16(fA[i]); }
  for (int i = 0; i < K * N; ++i) { fB[i] = float(rand() % 9 - 4); hB[i] = __float2bfloat16(fB[i]); }
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += fA[m * K + k] * fB[k * N + n];
      ref[m * N + n] = s;
    }
  __nv_bfloat16 *dA, *dB; float *dC;
  cudaMalloc(&dA, sizeof hA); cudaMalloc(&dB, sizeof hB); cudaMalloc(&dC, sizeof out);
  cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice);
  const char *names[] = {"SS K-major", "RS B MN-major lbo=16C sbo=128",
                         "RS B MN-major lbo=128 sbo=16C",
                         "SS A,B MN-major lbo=16C sbo=128",
                         "SS A,B MN-major lbo=128 sbo=16C"};
  for (int mode : {0, 1, 3}) {
    cudaMemset(dC, 0xFF, sizeof out);
    probe<<<1, 128>>>(dA, dB, dC, mode);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(out, dC, sizeof out, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < M * N; ++i) bad += out[i] != ref[i];
    printf("mode %d %-34s %s (%d of %d wrong) %s\n", mode, names[mode],
           bad ? "MISMATCH" : "match", bad, M * N, cudaGetErrorString(e));
  }
  return 0;
}
