// The error of PTX tanh.approx.f32 against double-precision tanh, measured
// exhaustively over every finite f32 input (2^32 bit patterns, on the GPU):
// the bound that softcap_approx's validation tolerances use
// (kernels-runtime/src/RunnerValidation.cpp, docs/semantics.md section 3).
//
//   nvcc -O2 -arch=sm_90a bench/tanh_approx_error.cu -o /tmp/tanh_err &&
//   /tmp/tanh_err
//
// Prints the largest absolute error |approx - tanh|, the largest relative
// error |approx - tanh| / |tanh| (over |x| >= 2^-126, normal inputs), and
// the inputs where they occur.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

__device__ float tanhApprox(float x) {
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// Packs an error (non-negative double) and its input bits into one 64-bit
// key whose unsigned order is the error's order (the error's top bits).
__device__ unsigned long long key(double err, uint32_t bits) {
  float e = float(err); // non-negative: its bits order like the value
  return (static_cast<unsigned long long>(__float_as_uint(e)) << 32) | bits;
}

__global__ void measure(unsigned long long *absMax, unsigned long long *relMax,
                        uint64_t begin) {
  uint64_t i = begin + blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i > 0xffffffffull)
    return;
  uint32_t bits = uint32_t(i);
  float x = __uint_as_float(bits);
  if (!isfinite(x))
    return;
  double want = tanh(double(x));
  double err = fabs(double(tanhApprox(x)) - want);
  atomicMax(absMax, key(err, bits));
  if (fabs(x) >= 1.1754943508222875e-38 && want != 0.0)
    atomicMax(relMax, key(err / fabs(want), bits));
}

int main() {
  unsigned long long *d, h[2];
  cudaMalloc(&d, 2 * sizeof(unsigned long long));
  cudaMemset(d, 0, 2 * sizeof(unsigned long long));
  const uint64_t chunk = uint64_t(1) << 30;
  for (uint64_t begin = 0; begin <= 0xffffffffull; begin += chunk)
    measure<<<unsigned(chunk / 256), 256>>>(d, d + 1, begin);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    printf("CUDA error\n");
    return 1;
  }
  const char *names[2] = {"absolute", "relative"};
  for (int k = 0; k < 2; ++k) {
    uint32_t eBits = uint32_t(h[k] >> 32), xBits = uint32_t(h[k]);
    float e, x;
    memcpy(&e, &eBits, 4);
    memcpy(&x, &xBits, 4);
    printf("tanh.approx.f32: max %s error %.6e (2^%.3f) at x = %.9g\n",
           names[k], double(e), std::log2(double(e)), double(x));
  }
  return 0;
}
