//===- Philox.cpp - Philox dropout bits emitted as arith ops --------------===//

#include "attnopt/Dialect/Attn/Utils/Philox.h"
#include "attnopt/Reference/Philox.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace {
Value constI32(OpBuilder &b, Location loc, uint32_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                      static_cast<int32_t>(v));
}
Value constI64(OpBuilder &b, Location loc, uint64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                      static_cast<int64_t>(v));
}
Value lo32(OpBuilder &b, Location loc, Value v64) {
  return arith::TruncIOp::create(b, loc, b.getI32Type(), v64);
}
Value hi32(OpBuilder &b, Location loc, Value v64) {
  Value shifted = arith::ShRUIOp::create(b, loc, v64, constI64(b, loc, 32));
  return lo32(b, loc, shifted);
}
Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index);
}
} // namespace

std::array<Value, 4> mlir::attn::emitPhilox4x32_10(OpBuilder &b, Location loc,
                                                   std::array<Value, 4> ctr,
                                                   std::array<Value, 2> key) {
  Value mul0 = constI32(b, loc, 0xD2511F53u), mul1 = constI32(b, loc, 0xCD9E8D57u);
  Value weyl0 = constI32(b, loc, 0x9E3779B9u), weyl1 = constI32(b, loc, 0xBB67AE85u);
  for (int round = 0; round < 10; ++round) {
    auto p0 = arith::MulUIExtendedOp::create(b, loc, mul0, ctr[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, mul1, ctr[2]);
    Value x0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p1.getHigh(), ctr[1]), key[0]);
    Value x2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p0.getHigh(), ctr[3]), key[1]);
    ctr = {x0, p1.getLow(), x2, p0.getLow()};
    if (round != 9) {
      key[0] = arith::AddIOp::create(b, loc, key[0], weyl0);
      key[1] = arith::AddIOp::create(b, loc, key[1], weyl1);
    }
  }
  return ctr;
}

std::array<Value, 4>
mlir::attn::emitDropoutBlockWords(OpBuilder &b, Location loc, Value seed,
                                  Value offset, const DropoutPosition &pos) {
  // row = (batch * numHeads + head) * queryLen + row, in 64 bits.
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc,
          arith::AddIOp::create(
              b, loc,
              arith::MulIOp::create(b, loc, toI64(b, loc, pos.batch),
                                    toI64(b, loc, pos.numHeads)),
              toI64(b, loc, pos.head)),
          toI64(b, loc, pos.queryLen)),
      toI64(b, loc, pos.row));
  Value col = toI64(b, loc, pos.col);
  Value quad = arith::ShRUIOp::create(b, loc, col, constI64(b, loc, 2));
  std::array<Value, 4> ctr = {lo32(b, loc, quad), lo32(b, loc, row),
                              lo32(b, loc, offset), hi32(b, loc, offset)};
  std::array<Value, 2> key = {lo32(b, loc, seed), hi32(b, loc, seed)};
  return emitPhilox4x32_10(b, loc, ctr, key);
}

Value mlir::attn::emitDropoutBits(OpBuilder &b, Location loc, Value seed,
                                  Value offset, const DropoutPosition &pos) {
  std::array<Value, 4> words = emitDropoutBlockWords(b, loc, seed, offset, pos);
  // words[col & 3], as a chain of selects.
  Value col = toI64(b, loc, pos.col);
  Value lane = arith::AndIOp::create(b, loc, col, constI64(b, loc, 3));
  Value result = words[3];
  for (int w = 2; w >= 0; --w) {
    Value isLane = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         lane, constI64(b, loc, w));
    result = arith::SelectOp::create(b, loc, isLane, words[w], result);
  }
  return result;
}

Value mlir::attn::emitDropoutKeep(OpBuilder &b, Location loc, Value seed,
                                  Value offset, const DropoutPosition &pos,
                                  float p) {
  Value bits = emitDropoutBits(b, loc, seed, offset, pos);
  Value threshold = constI32(b, loc, attnopt::ref::dropoutThreshold(p));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, bits,
                               threshold);
}

Value mlir::attn::emitDropoutKeepNibble(OpBuilder &b, Location loc, Value seed,
                                        Value offset,
                                        const DropoutPosition &pos, float p) {
  std::array<Value, 4> words = emitDropoutBlockWords(b, loc, seed, offset, pos);
  Value threshold = constI32(b, loc, attnopt::ref::dropoutThreshold(p));
  Value nibble = constI32(b, loc, 0);
  for (int w = 0; w < 4; ++w) {
    Value keep = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                       words[w], threshold);
    Value bit = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, b.getI32Type(), keep),
        constI32(b, loc, w));
    nibble = arith::OrIOp::create(b, loc, nibble, bit);
  }
  return nibble;
}
