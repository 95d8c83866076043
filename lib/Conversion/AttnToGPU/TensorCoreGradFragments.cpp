//===- TensorCoreGradFragments.cpp - the backward's mma.sync fragments ----===//
//
// The mma.sync fragment parts that the tensor-core backward's dkdv, dkdv_dq
// and dq kernels share (TensorCoreGradEmitter.h; layouts in the header
// comment of TensorCoreGradKernelBuilder.cpp): the lane offsets of the three
// ldmatrix patterns, A fragments packed from C fragments, a product over the
// n-tile pairs of an accumulator, the staged per-query lse / D_i pairs, and
// the store of C-fragment accumulators (dK, dV, dQ) to global memory.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreGradEmitter.h"

#include <algorithm>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::attn;
using tcgrad::GradEmitter;

Value GradEmitter::aLaneOffset(int64_t stride) {
  return mul(add(mul(remu(lane, 16), stride), mul(divu(lane, 16), 8)),
             kOperandBytes);
}

Value GradEmitter::bLaneOffset(int64_t stride) {
  return mul(add(mul(add(remu(lane, 8), mul(divu(lane, 16), 8)), stride),
                 mul(remu(divu(lane, 8), 2), 8)),
             kOperandBytes);
}

Value GradEmitter::bTransLaneOffset(int64_t stride) {
  return mul(
      add(mul(add(remu(lane, 8), mul(remu(divu(lane, 8), 2), 8)), stride),
          mul(divu(lane, 16), 8)),
      kOperandBytes);
}

std::array<Value, 4> GradEmitter::packA(ArrayRef<Frag> c, int64_t kk) {
  const Frag &c0 = c[2 * kk], &c1 = c[2 * kk + 1];
  return {packPair(c0[0], c0[1]), packPair(c0[2], c0[3]),
          packPair(c1[0], c1[1]), packPair(c1[2], c1[3])};
}

void GradEmitter::mmaAcrossPairs(const std::array<Value, 4> &a, Value tile,
                                 Value lane, int64_t stride, int64_t k,
                                 bool transposed, MutableArrayRef<Frag> acc) {
  for (size_t np = 0; np < acc.size() / 2; ++np) {
    const int64_t n = static_cast<int64_t>(np);
    const int64_t elements =
        transposed ? 16 * k * stride + 16 * n : 16 * n * stride + 16 * k;
    auto r =
        ldmatrix4(add(add(tile, lane), elements * kOperandBytes), transposed);
    acc[2 * np] = mma(a, r[0], r[1], acc[2 * np]);
    acc[2 * np + 1] = mma(a, r[2], r[3], acc[2 * np + 1]);
  }
}

Value GradEmitter::loadRowPair(Value rows, Value stage, int64_t nt,
                               int64_t which) {
  Value pair =
      vector::LoadOp::create(b, loc, VectorType::get({2}, b.getF32Type()), rows,
                             ValueRange{stage, add(mul(t4, 2), 8 * nt)},
                             /*nontemporal=*/false, llvm::MaybeAlign(8));
  return vector::ExtractOp::create(b, loc, pair, which);
}

void GradEmitter::storeFragments(ArrayRef<Frag> acc, float scale, Value dest,
                                 GlobalRows rows, Value row0,
                                 kernel::Extent limit, int64_t width,
                                 int64_t col0) {
  auto pairTy = VectorType::get({2}, elt);
  // Only the real columns: a padded tile's last n-tiles are not stored.
  acc = acc.take_front(std::max<int64_t>(0, (width - col0) / 8));
  for (int64_t r = 0; r < 2; ++r) {
    Value row = add(row0, add(g, 8 * r));
    emitIf(lessThan(row, limit), [&] {
      for (size_t nt = 0; nt < acc.size(); ++nt) {
        Value lo = acc[nt][2 * r], hi = acc[nt][2 * r + 1];
        if (scale != 1.0f) {
          lo = fmul(lo, f32(scale));
          hi = fmul(hi, f32(scale));
        }
        Value pair = vector::FromElementsOp::create(
            b, loc, pairTy,
            ValueRange{arith::TruncFOp::create(b, loc, elt, lo),
                       arith::TruncFOp::create(b, loc, elt, hi)});
        Value at = add(mul(globalRow(rows, row), width),
                       add(mul(t4, 2), col0 + 8 * static_cast<int64_t>(nt)));
        vector::StoreOp::create(b, loc, pair, dest, ValueRange{at},
                                /*nontemporal=*/false, llvm::MaybeAlign(4));
      }
    });
  }
}

void GradEmitter::storeKeyBlockGradients(ArrayRef<Frag> dK, ArrayRef<Frag> dV,
                                         bool wantDK, bool wantDV,
                                         GlobalRows kvRows, Value k0) {
  Value warpKey0 = add(k0, mul(warp, 16));
  if (wantDK)
    storeFragments(dK, mods.scale, args.gradKey, kvRows, warpKey0, keyLen,
                   headDim);
  if (wantDV)
    storeFragments(dV, 1.0f, args.gradValue, kvRows, warpKey0, keyLen,
                   valueDim);
}
