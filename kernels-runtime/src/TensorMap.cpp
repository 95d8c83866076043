//===- TensorMap.cpp - TMA tensor-map layouts (host only) -----------------===//
//
// What cuTensorMapEncodeTiled takes for a "tensor_map" parameter over a
// bound, row-major tensor (docs/kernel-manifest.md, "TMA tensor maps").
//
//===----------------------------------------------------------------------===//

#include "attnrt/TensorMap.h"
#include "attnrt/Util.h"

namespace attnrt {

int tensorMapDataType(DType t) {
  switch (t) {
  case DType::F16:
    return kTensorMapFloat16;
  case DType::BF16:
    return kTensorMapBFloat16;
  case DType::F32:
    return kTensorMapFloat32;
  default:
    return -1;
  }
}

int tensorMapSwizzleMode(int64_t bytes) {
  switch (bytes) {
  case 0:
    return 0;
  case 32:
    return 1;
  case 64:
    return 2;
  case 128:
    return 3;
  default:
    return -1;
  }
}

std::string tensorMapName(const ParamSpec &map, const ParamSpec &tensor) {
  return "tensor map '" + map.name + "' of '" + tensor.name + "' " +
         formatShape(tensor.shape) + " " + dtypeName(tensor.dtype);
}

namespace {
/// tensorMapName and ": ", the start of a layout error.
std::string mapText(const ParamSpec &map, const ParamSpec &tensor) {
  return tensorMapName(map, tensor) + ": ";
}
} // namespace

std::string tensorMapLayout(const ParamSpec &map, const ParamSpec &tensor,
                            TensorMapLayout &out) {
  const size_t rank = tensor.shape.size();
  // The validator checked these; a caller's own ParamSpec may not be.
  if (rank < 1 || rank > size_t(kMaxTensorMapRank) || map.box.size() != rank)
    return mapText(map, tensor) + "rank " + std::to_string(rank) +
           " with a box of " + std::to_string(map.box.size()) +
           " extents (expected rank 1 to 5 and one extent per dimension)";
  out = TensorMapLayout();
  out.rank = uint32_t(rank);
  out.dataType = tensorMapDataType(tensor.dtype);
  out.swizzle = tensorMapSwizzleMode(map.swizzle);
  if (out.dataType < 0 || out.swizzle < 0)
    return mapText(map, tensor) + "no TMA data type for " +
           dtypeName(tensor.dtype) + " or swizzle mode for " +
           std::to_string(map.swizzle) + " bytes";
  // Row-major and contiguous: the stride of each dimension is the product
  // of the extents inside it (the innermost one's is the element, which
  // TMA does not take).
  uint64_t stride = dtypeSize(tensor.dtype);
  for (size_t i = 0; i < rank; ++i) {
    const size_t dim = rank - 1 - i;
    const int64_t extent = tensor.shape[dim];
    if (extent < 1)
      return mapText(map, tensor) + "dimension " + std::to_string(dim) +
             " is not bound (a run-time size without a value)";
    if (uint64_t(extent) > (uint64_t(1) << 32))
      return mapText(map, tensor) + "dimension " + std::to_string(dim) + " (" +
             std::to_string(extent) + ") is over 2^32";
    out.dims[i] = uint64_t(extent);
    out.box[i] = uint32_t(map.box[i]);
    if (i + 1 == rank)
      break;
    // Compared before multiplying, so that the product cannot overflow.
    const uint64_t strideLimit = uint64_t(1) << 40;
    if (stride > (strideLimit - 1) / uint64_t(extent))
      return mapText(map, tensor) + "the stride of dimension " +
             std::to_string(dim - 1) + " is 2^40 bytes or more";
    stride *= uint64_t(extent);
    if (stride % kTensorMapGranule)
      return mapText(map, tensor) + "the stride of dimension " +
             std::to_string(dim - 1) + " (" + std::to_string(stride) +
             " bytes) is not a multiple of 16 bytes";
    out.strides[i] = stride;
  }
  return std::string();
}

} // namespace attnrt
