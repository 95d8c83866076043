// Probe of the conventions a TMA-fed wgmma forward would rely on (the step
// after session 8's warp-specialized kernel, docs/architecture.md): tiles
// loaded by cp.async.bulk.tensor with the 128-byte swizzle, completing on an
// mbarrier, and read by wgmma through 128B-swizzle matrix descriptors.
//
// Global tensors X, Y are [128][128] bf16, row-major (a head's rows of D =
// 128). Tensor maps: 2-D {128 columns, 128 rows}, box {64 columns, 64
// rows}, CU_TENSOR_MAP_SWIZZLE_128B, so one box lands as 64 rows of 128
// bytes ("a panel"), 16-byte chunk j of row r at chunk j ^ (r % 8).
//   mode 0: dumps a V panel (Y rows 0-127, columns 0-63) as loaded and
//           checks every element against that swizzle formula.
//   mode 1: S = X[0:64, :] Y[0:64, :]^T, m64n64k16, both operands K-major
//           in shared memory (two panels each along K = 128): descriptor
//           start = panel + 32 bytes per k-step of 16, SBO = 1024 (8-row
//           groups), layout type 1 (128B swizzle, bits 62-63).
//   mode 2: O = X[0:64, :] Y[:, 0:64], B = Y MN-major (transpose flag):
//           start = 2048 bytes per k-step of 16 rows, (LBO, SBO) from the
//           command line, e.g. "2 16384 1024" and "2 1024 16384" (a wrong
//           guess may fault: run each mode in its own process).
// Products of small integers are exact in bf16 and f32; the host compares.
// Written in session 8 (2026-11-30); run on the H200 in session 9: modes
// 0, 1 and "2 16384 1024" match exactly, "2 1024 16384" mismatches and
// faults (LBO and SBO swapped). The wgmma forward's SW128 tiles
// (MmaEmitterBase.h) follow these conventions.
//   nvcc -gencode=arch=compute_90a,code=sm_90a tma_swizzle_probe.cu -lcuda
//   for m in "0" "1" "2 16384 1024" "2 1024 16384"; do ./a.out $m; done
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

constexpr int kRows = 128, kCols = 128, kPanelBytes = 64 * 128;

#include "wgmma_probe_regs.h"

__device__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// 128B-swizzle descriptor: start >> 4, LBO >> 4, SBO >> 4, layout type 1.
__device__ uint64_t desc128(const void *p, uint32_t lbo, uint32_t sbo) {
  return uint64_t((smemAddr(p) & 0x3FFFF) >> 4) | (uint64_t(lbo >> 4) << 16) |
         (uint64_t(sbo >> 4) << 32) | (uint64_t(1) << 62);
}

__device__ void tmaLoad(const CUtensorMap *map, void *dst, uint64_t *bar,
                        int col, int row) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
                   smemAddr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(col), "r"(row),
               "r"(smemAddr(bar))
               : "memory");
}

__global__ void probe(const __grid_constant__ CUtensorMap mx,
                      const __grid_constant__ CUtensorMap my, float *c,
                      uint16_t *dump, int mode, uint32_t lbo, uint32_t sbo) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ uint64_t bar;
  uint8_t *sA = smem, *sB = smem + 2 * kPanelBytes;
  int tid = threadIdx.x;
  if (tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(
                     smemAddr(&bar))
                 : "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    // A: X rows 0-63 as two panels along the columns. B: Y rows 0-63 as
    // two panels (mode 1), or Y rows 0-127 of columns 0-63 (modes 0, 2).
    asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.expect_tx.shared::cta.b64 "
                 "st, [%0], %1;\n}\n" ::"r"(smemAddr(&bar)),
                 "r"(4 * kPanelBytes)
                 : "memory");
    tmaLoad(&mx, sA, &bar, 0, 0);
    tmaLoad(&mx, sA + kPanelBytes, &bar, 64, 0);
    if (mode == 1) {
      tmaLoad(&my, sB, &bar, 0, 0);
      tmaLoad(&my, sB + kPanelBytes, &bar, 64, 0);
    } else {
      tmaLoad(&my, sB, &bar, 0, 0);
      tmaLoad(&my, sB + kPanelBytes, &bar, 0, 64);
    }
  }
  __syncthreads();
  asm volatile("{\n.reg .pred p;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
               "@!p bra LAB_WAIT;\n}\n" ::"r"(smemAddr(&bar))
               : "memory");
  if (mode == 0) {
    const uint16_t *s = reinterpret_cast<const uint16_t *>(sB);
    for (int i = tid; i < 2 * kPanelBytes / 2; i += blockDim.x)
      dump[i] = s[i];
    return;
  }
  float d[32];
  for (float &x : d)
    x = 0.f;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  for (int ks = 0; ks < 8; ++ks) {
    uint64_t da = desc128(sA + (ks / 4) * kPanelBytes + (ks % 4) * 32, 16, 1024);
    if (mode == 1) {
      uint64_t db =
          desc128(sB + (ks / 4) * kPanelBytes + (ks % 4) * 32, 16, 1024);
      asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " REGS32
                   ", %32, %33, 1, 1, 1, 0, 0;\n"
                   : WG_ACC32
                   : "l"(da), "l"(db));
    } else {
      uint64_t db = desc128(sB + ks * 2048, lbo, sbo);
      asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " REGS32
                   ", %32, %33, 1, 1, 1, 0, 1;\n"
                   : WG_ACC32
                   : "l"(da), "l"(db));
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  int warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  for (int nt = 0; nt < 8; ++nt)
    for (int e = 0; e < 4; ++e) {
      int r = 16 * warp + g + 8 * (e / 2), col = 8 * nt + 2 * t + e % 2;
      c[r * 64 + col] = d[4 * nt + e];
    }
}

static bool check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return true;
  const char *s = nullptr;
  cuGetErrorString(r, &s);
  printf("%s failed: %s\n", what, s ? s : "?");
  return false;
}

static bool encode(CUtensorMap *map, void *ptr) {
  cuuint64_t dims[2] = {kCols, kRows}, strides[1] = {kCols * 2};
  cuuint32_t box[2] = {64, 64}, elementStrides[2] = {1, 1};
  return check(cuTensorMapEncodeTiled(
                   map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims, strides,
                   box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
               "cuTensorMapEncodeTiled");
}

int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  uint32_t lbo = argc > 2 ? atoi(argv[2]) : 16384;
  uint32_t sbo = argc > 3 ? atoi(argv[3]) : 1024;
  static float fx[kRows * kCols], fy[kRows * kCols], ref[64 * 64], out[64 * 64];
  static __nv_bfloat16 hx[kRows * kCols], hy[kRows * kCols];
  static uint16_t dump[2 * kPanelBytes / 2];
  srand(11);
  for (int i = 0; i < kRows * kCols; ++i) {
    fx[i] = float(rand() % 7 - 3);
    fy[i] = float(rand() % 7 - 3);
    hx[i] = __float2bfloat16(fx[i]);
    hy[i] = __float2bfloat16(fy[i]);
  }
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 64; ++n) {
      float s = 0;
      for (int k = 0; k < 128; ++k)
        s += mode == 1 ? fx[m * kCols + k] * fy[n * kCols + k]
                       : fx[m * kCols + k] * fy[k * kCols + n];
      ref[m * 64 + n] = s;
    }
  void *dx, *dy;
  float *dc;
  uint16_t *dd;
  cudaMalloc(&dx, sizeof hx);
  cudaMalloc(&dy, sizeof hy);
  cudaMalloc(&dc, sizeof out);
  cudaMalloc(&dd, sizeof dump);
  cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice);
  cudaMemset(dc, 0xFF, sizeof out);
  cudaMemset(dd, 0xFF, sizeof dump);
  CUtensorMap mx, my;
  if (!encode(&mx, dx) || !encode(&my, dy))
    return 1;
  const int smemBytes = 4 * kPanelBytes + 1024;
  cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       smemBytes);
  probe<<<1, 128, smemBytes>>>(mx, my, dc, dd, mode, lbo, sbo);
  cudaError_t e = cudaDeviceSynchronize();
  int bad = 0, total = 0;
  if (mode == 0) {
    cudaMemcpy(dump, dd, sizeof dump, cudaMemcpyDeviceToHost);
    for (int r = 0; r < 128; ++r)
      for (int col = 0; col < 64; ++col) {
        int byte = r * 128 + (((col / 8) ^ (r % 8)) * 16) + (col % 8) * 2;
        uint16_t want;
        memcpy(&want, &hy[r * kCols + col], 2);
        bad += dump[byte / 2] != want;
        ++total;
      }
  } else {
    cudaMemcpy(out, dc, sizeof out, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 64 * 64; ++i)
      bad += out[i] != ref[i];
    total = 64 * 64;
  }
  printf("mode %d lbo %u sbo %u: %s (%d of %d wrong) %s\n", mode, lbo, sbo,
         bad ? "MISMATCH" : "match", bad, total, cudaGetErrorString(e));
  return bad || e != cudaSuccess;
}
