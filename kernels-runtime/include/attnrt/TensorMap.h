//===- TensorMap.h - TMA tensor maps of a kernel's tensors ------*- C++ -*-===//
//
// A kernel parameter of kind "tensor_map" (docs/kernel-manifest.md, "TMA
// tensor maps") is a CUtensorMap over one of the kernel's tensor
// parameters, whole, as bound at launch. tensorMapLayout computes what
// cuTensorMapEncodeTiled takes; it is host-only (this header does not
// include cuda.h), so that the host tests check it without a GPU.
// encodeTensorMap (Cuda.h, TensorMapEncode.cpp) calls the driver with it.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_TENSORMAP_H
#define ATTNRT_TENSORMAP_H

#include "attnrt/Manifest.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace attnrt {

/// The most dimensions a tensor map has (cuTensorMapEncodeTiled's rank).
constexpr int kMaxTensorMapRank = 5;
/// The bytes of a CUtensorMap and the alignment its kernel parameter (and
/// the copy that cuLaunchKernel reads) needs.
constexpr size_t kTensorMapBytes = 128, kTensorMapAlignment = 64;
/// TMA's unit: the mapped tensor's address and strides are multiples of it.
constexpr uint64_t kTensorMapGranule = 16;

/// CUtensorMapDataType values (cuda.h, which this header cannot include;
/// TensorMapEncode.cpp checks them against it).
constexpr int kTensorMapFloat16 = 6, kTensorMapFloat32 = 7,
              kTensorMapBFloat16 = 9;

/// cuTensorMapEncodeTiled's arguments for one map, innermost dimension
/// first: dims[i] = shape[rank - 1 - i]; strides[i] (bytes) that of
/// dimension rank - 2 - i; box as the manifest lists it. dataType and
/// swizzle are CUtensorMapDataType / CUtensorMapSwizzle values.
struct TensorMapLayout {
  uint32_t rank = 0;
  std::array<uint64_t, kMaxTensorMapRank> dims{};
  std::array<uint64_t, kMaxTensorMapRank - 1> strides{};
  std::array<uint32_t, kMaxTensorMapRank> box{};
  int dataType = 0;
  int swizzle = 0;
};

/// The CUtensorMapDataType of a tensor map over `t` (f16, bf16, f32); -1
/// for any other dtype.
int tensorMapDataType(DType t);

/// The CUtensorMapSwizzle of a manifest's "swizzle" (0, 32, 64 or 128
/// bytes: NONE, 32B, 64B, 128B); -1 for any other.
int tensorMapSwizzleMode(int64_t bytes);

/// "tensor map 'key_tensor_map' of 'key' [2, 2, 1000, 128] bf16", naming a
/// map in error messages (built only for an error).
std::string tensorMapName(const ParamSpec &map, const ParamSpec &tensor);

/// The layout of tensor map `map` over `tensor` (its bound shape and dtype:
/// run-time sizes already bound). "" on success, else why not, naming the
/// map and the tensor: a size still unbound, a dimension past 2^32, a
/// stride that is not a multiple of 16 bytes or not below 2^40 (what
/// cuTensorMapEncodeTiled takes). Builds no string on success (launches
/// allocate nothing).
std::string tensorMapLayout(const ParamSpec &map, const ParamSpec &tensor,
                            TensorMapLayout &out);

} // namespace attnrt

#endif // ATTNRT_TENSORMAP_H
