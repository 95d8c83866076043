//===- HostTensors.cpp - host buffers passed to JIT-compiled code ---------===//

#include "HostTensors.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>
#include <limits>

using namespace mlir::attn;

static unsigned byteWidth(HostElementType t) {
  switch (t) {
  case HostElementType::F16:
  case HostElementType::BF16:
    return 2;
  case HostElementType::F32:
  case HostElementType::I32:
    return 4;
  case HostElementType::F64:
  case HostElementType::I64:
    return 8;
  case HostElementType::I1:
  case HostElementType::I8:
    return 1;
  }
  return 1;
}

static uint16_t toBits(double v, const llvm::fltSemantics &sem) {
  llvm::APFloat f(v);
  bool lost = false;
  f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

static double fromBits(uint16_t bits, const llvm::fltSemantics &sem) {
  llvm::APFloat f(sem, llvm::APInt(16, bits));
  bool lost = false;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return f.convertToDouble();
}

uint16_t mlir::attn::toHalfBits(double v) {
  return toBits(v, llvm::APFloat::IEEEhalf());
}
uint16_t mlir::attn::toBFloat16Bits(double v) {
  return toBits(v, llvm::APFloat::BFloat());
}
double mlir::attn::fromHalfBits(uint16_t bits) {
  return fromBits(bits, llvm::APFloat::IEEEhalf());
}
double mlir::attn::fromBFloat16Bits(uint16_t bits) {
  return fromBits(bits, llvm::APFloat::BFloat());
}

HostTensor::HostTensor(HostElementType type, std::vector<int64_t> shape)
    : type(type), shape(std::move(shape)) {
  for (int64_t s : this->shape)
    count *= s;
  // One spare element keeps data() non-null and distinct for empty tensors.
  bytes.assign((count + 1) * byteWidth(type), 0);
  int64_t rank = this->shape.size();
  desc.assign(3 + 2 * rank, 0);
  void *data = bytes.data();
  std::memcpy(&desc[0], &data, sizeof(void *));
  std::memcpy(&desc[1], &data, sizeof(void *));
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc[3 + d] = this->shape[d];
    desc[3 + rank + d] = stride;
    stride *= this->shape[d];
  }
}

double HostTensor::store(int64_t index, double value) {
  uint8_t *p = bytes.data() + index * byteWidth(type);
  switch (type) {
  case HostElementType::F16: {
    uint16_t bits = toHalfBits(value);
    std::memcpy(p, &bits, 2);
    return fromHalfBits(bits);
  }
  case HostElementType::BF16: {
    uint16_t bits = toBFloat16Bits(value);
    std::memcpy(p, &bits, 2);
    return fromBFloat16Bits(bits);
  }
  case HostElementType::F32: {
    float f = static_cast<float>(value);
    std::memcpy(p, &f, 4);
    return f;
  }
  case HostElementType::F64:
    std::memcpy(p, &value, 8);
    return value;
  case HostElementType::I1:
    *p = value != 0.0 ? 1 : 0;
    return *p;
  case HostElementType::I8: {
    auto i = static_cast<int8_t>(value);
    std::memcpy(p, &i, 1);
    return i;
  }
  case HostElementType::I32: {
    auto i = static_cast<int32_t>(value);
    std::memcpy(p, &i, 4);
    return i;
  }
  case HostElementType::I64: {
    auto i = static_cast<int64_t>(value);
    std::memcpy(p, &i, 8);
    return static_cast<double>(i);
  }
  }
  return 0.0;
}

double HostTensor::load(int64_t index) const {
  const uint8_t *p = bytes.data() + index * byteWidth(type);
  uint16_t bits;
  switch (type) {
  case HostElementType::F16:
    std::memcpy(&bits, p, 2);
    return fromHalfBits(bits);
  case HostElementType::BF16:
    std::memcpy(&bits, p, 2);
    return fromBFloat16Bits(bits);
  case HostElementType::F32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case HostElementType::F64: {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  case HostElementType::I1:
    return *p;
  case HostElementType::I8: {
    int8_t i;
    std::memcpy(&i, p, 1);
    return i;
  }
  case HostElementType::I32: {
    int32_t i;
    std::memcpy(&i, p, 4);
    return i;
  }
  case HostElementType::I64: {
    int64_t i;
    std::memcpy(&i, p, 8);
    return static_cast<double>(i);
  }
  }
  return 0.0;
}

void HostTensor::poison() {
  if (type == HostElementType::I1 || type == HostElementType::I8 ||
      type == HostElementType::I32 || type == HostElementType::I64) {
    std::memset(bytes.data(), 0xAB, bytes.size());
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    store(i, std::numeric_limits<double>::quiet_NaN());
}
