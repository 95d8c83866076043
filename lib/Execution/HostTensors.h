//===- HostTensors.h - host buffers passed to JIT-compiled code -*- C++ -*-===//

#ifndef ATTNOPT_LIB_EXECUTION_HOSTTENSORS_H
#define ATTNOPT_LIB_EXECUTION_HOSTTENSORS_H

#include <cstdint>
#include <random>
#include <vector>

namespace mlir::attn {

enum class HostElementType { F16, BF16, F32, F64, I1, I8, I32, I64 };

/// A dense row-major buffer plus the strided-memref descriptor that points
/// at it ({allocated, aligned, offset, sizes[N], strides[N]}, all 8 bytes).
class HostTensor {
public:
  HostTensor(HostElementType type, std::vector<int64_t> shape);

  int64_t numElements() const { return count; }
  HostElementType elementType() const { return type; }

  /// Stores `value` rounded to nearest-even in the element type and returns
  /// the value actually stored (what the reference must see).
  double store(int64_t index, double value);
  double load(int64_t index) const;
  /// Fills with NaN (floats) so that unwritten elements are caught.
  void poison();
  /// The descriptor pointer the C interface expects for this argument.
  void *descriptor() { return desc.data(); }

private:
  HostElementType type;
  std::vector<int64_t> shape;
  int64_t count = 1;
  std::vector<uint8_t> bytes;
  std::vector<int64_t> desc;
};

/// Bit conversions, round to nearest even.
uint16_t toHalfBits(double v);
uint16_t toBFloat16Bits(double v);
double fromHalfBits(uint16_t bits);
double fromBFloat16Bits(uint16_t bits);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_HOSTTENSORS_H
