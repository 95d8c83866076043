//===- TensorMapEncode.cpp - TMA tensor maps through the driver -----------===//
//
// encodeTensorMap (Cuda.h): the one place that calls
// cuTensorMapEncodeTiled, for the runtime library's launches (Runtime.cpp)
// and attn-run's (RunnerBuffers.h). The layout itself is tensorMapLayout's
// (TensorMap.cpp, host-tested).
//
//===----------------------------------------------------------------------===//

#include "attnrt/Cuda.h"
#include "attnrt/TensorMap.h"
#include "attnrt/Util.h"

namespace attnrt {

// TensorMap.h spells the driver's enumerators as numbers (it is host-only).
static_assert(kTensorMapFloat16 == CU_TENSOR_MAP_DATA_TYPE_FLOAT16 &&
                  kTensorMapFloat32 == CU_TENSOR_MAP_DATA_TYPE_FLOAT32 &&
                  kTensorMapBFloat16 == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
              "CUtensorMapDataType values");
static_assert(CU_TENSOR_MAP_SWIZZLE_NONE == 0 &&
                  CU_TENSOR_MAP_SWIZZLE_32B == 1 &&
                  CU_TENSOR_MAP_SWIZZLE_64B == 2 &&
                  CU_TENSOR_MAP_SWIZZLE_128B == 3,
              "CUtensorMapSwizzle values (tensorMapSwizzleMode)");
static_assert(sizeof(CUtensorMap) == kTensorMapBytes &&
                  alignof(CUtensorMap) >= kTensorMapAlignment,
              "a CUtensorMap object is the aligned 128-byte kernel parameter");

void encodeTensorMap(const ParamSpec &map, const ParamSpec &tensor,
                     CUdeviceptr ptr, CUtensorMap *out) {
  auto what = [&] { return tensorMapName(map, tensor); };
  // cuTensorMapEncodeTiled requires both; say which, rather than its
  // CUDA_ERROR_INVALID_VALUE.
  if (ptr % kTensorMapGranule)
    throw Error(what() + ": the device pointer " + format("0x%llx", ptr) +
                    " is not 16-byte aligned (TMA requires it)",
                kExitInput);
  if (reinterpret_cast<uintptr_t>(out) % kTensorMapAlignment)
    throw Error(what() + ": the CUtensorMap storage is not 64-byte aligned");
  TensorMapLayout layout;
  const std::string why = tensorMapLayout(map, tensor, layout);
  if (!why.empty())
    throw Error(why, kExitInput);
  std::array<cuuint32_t, kMaxTensorMapRank> elementStrides;
  elementStrides.fill(1);
  const CUresult r = cuTensorMapEncodeTiled(
      out, CUtensorMapDataType(layout.dataType), layout.rank,
      reinterpret_cast<void *>(ptr), layout.dims.data(), layout.strides.data(),
      layout.box.data(), elementStrides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
      CUtensorMapSwizzle(layout.swizzle), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw CudaError(r,
                    "cuTensorMapEncodeTiled for " + what() + " (box " +
                        formatShape(map.box) + " innermost first, swizzle " +
                        std::to_string(map.swizzle) +
                        ") failed: " + describeCuResult(r),
                    kExitFailure);
}

} // namespace attnrt
