//===- SymbolicSizes.cpp - sizes as products of dims ----------------------===//

#include "SymbolicSizes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Deep enough for torch-mlir's size arithmetic (a few dozen ops between a
/// reshape and the dims it is computed from); the limit only stops cycles
/// through graph regions and pathological inputs.
constexpr unsigned kMaxDepth = 64;

/// `a / b` where it is exact whatever the run-time dims are: b's dims are
/// among a's and b's constant divides a's. (Where a dim of b is 0 at run
/// time the division by zero the program would do is undefined, and any
/// value is a valid one.)
std::optional<SymbolicSize> exactQuotient(const SymbolicSize &a,
                                          const SymbolicSize &b) {
  if (b.constant == 0 || a.constant % b.constant != 0)
    return std::nullopt;
  SymbolicSize r{a.constant / b.constant, a.dims};
  for (const SymbolicSize::Dim &d : b.dims) {
    auto it = llvm::find(r.dims, d);
    if (it == r.dims.end())
      return std::nullopt;
    r.dims.erase(it);
  }
  return r;
}

/// Whether `s` has a factor of unknown sign.
bool hasOpaqueFactor(const SymbolicSize &s) {
  return llvm::any_of(s.dims, [](const SymbolicSize::Dim &d) {
    return d.second == SymbolicSize::kOpaqueValue;
  });
}

/// Whether a cast from `from` to `to` (integers or index, index taken as 64
/// bits) drops bits.
bool narrows(Type from, Type to) {
  auto width = [](Type t) {
    return t.isIndex() ? 64u : t.getIntOrFloatBitWidth();
  };
  return width(to) < width(from);
}

/// The signed constant `value` holds, if it is one.
std::optional<int64_t> signedConstant(Value value) {
  APInt c;
  if (matchPattern(value, m_ConstantInt(&c)) && c.getBitWidth() <= 64)
    return c.getBitWidth() == 1 ? c.getZExtValue() : c.getSExtValue();
  return std::nullopt;
}

/// The bounds [lo, hi] of a value: exact for a constant; [0, inf) for a
/// product with run-time dims.
struct Bounds {
  int64_t lo, hi;
};

std::optional<Bounds> boundsOf(SymbolicSizes &sizes, Value v) {
  if (std::optional<int64_t> c = signedConstant(v))
    return Bounds{*c, *c};
  std::optional<SymbolicSize> s = sizes.sizeOf(v);
  if (!s)
    return std::nullopt;
  if (s->isConstant())
    return Bounds{s->constant, s->constant};
  if (s->constant == 0)
    return Bounds{0, 0};
  // A value the evaluator does not see through may be negative.
  if (hasOpaqueFactor(*s))
    return std::nullopt;
  return Bounds{0, std::numeric_limits<int64_t>::max()};
}

/// A signed comparison decided by the bounds of its sides.
std::optional<bool> compare(arith::CmpIPredicate p, Bounds a, Bounds b) {
  using P = arith::CmpIPredicate;
  auto lessThan = [](Bounds x, Bounds y) -> std::optional<bool> {
    if (x.hi < y.lo)
      return true;
    if (x.lo >= y.hi)
      return false;
    return std::nullopt;
  };
  auto negate = [](std::optional<bool> v) -> std::optional<bool> {
    if (v)
      return !*v;
    return std::nullopt;
  };
  switch (p) {
  case P::slt:
    return lessThan(a, b);
  case P::sge:
    return negate(lessThan(a, b));
  case P::sgt:
    return lessThan(b, a);
  case P::sle:
    return negate(lessThan(b, a));
  case P::eq:
    if (a.lo == a.hi && b.lo == b.hi)
      return a.lo == b.lo;
    if (a.hi < b.lo || b.hi < a.lo)
      return false;
    return std::nullopt;
  case P::ne:
    if (a.lo == a.hi && b.lo == b.hi)
      return a.lo != b.lo;
    if (a.hi < b.lo || b.hi < a.lo)
      return true;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<SymbolicSize>
SymbolicSize::times(const SymbolicSize &other) const {
  SymbolicSize r;
  if (llvm::MulOverflow(constant, other.constant, r.constant))
    return std::nullopt;
  r.dims.append(dims.begin(), dims.end());
  r.dims.append(other.dims.begin(), other.dims.end());
  llvm::sort(r.dims, [](const Dim &x, const Dim &y) {
    return std::make_pair(x.first.getAsOpaquePointer(), x.second) <
           std::make_pair(y.first.getAsOpaquePointer(), y.second);
  });
  return r;
}

std::optional<SymbolicSize> SymbolicSizes::sizeOf(Value value) {
  auto it = sizes.find(value);
  if (it != sizes.end())
    return it->second;
  if (depth >= kMaxDepth)
    return std::nullopt;
  ++depth;
  std::optional<SymbolicSize> s = evaluate(value);
  --depth;
  sizes[value] = s;
  return s;
}

std::optional<SymbolicSize> SymbolicSizes::dimOf(Value tensor, int64_t dim) {
  auto key = std::make_pair(tensor, dim);
  auto it = dims.find(key);
  if (it != dims.end())
    return it->second;
  if (depth >= kMaxDepth)
    return std::nullopt;
  ++depth;
  std::optional<SymbolicSize> s = evaluateDim(tensor, dim);
  --depth;
  dims[key] = s;
  return s;
}

std::optional<bool> SymbolicSizes::truthOf(Value condition) {
  if (std::optional<int64_t> c = signedConstant(condition))
    return *c != 0;
  auto cmp = condition.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P p = cmp.getPredicate();
  if (p == P::eq || p == P::ne)
    if (equal(cmp.getLhs(), cmp.getRhs()))
      return p == P::eq;
  std::optional<Bounds> a = boundsOf(*this, cmp.getLhs());
  std::optional<Bounds> b = boundsOf(*this, cmp.getRhs());
  if (!a || !b)
    return std::nullopt;
  // Sizes are non-negative, so the unsigned orders agree with the signed.
  switch (p) {
  case P::ult:
    p = P::slt;
    break;
  case P::ule:
    p = P::sle;
    break;
  case P::ugt:
    p = P::sgt;
    break;
  case P::uge:
    p = P::sge;
    break;
  default:
    break;
  }
  if ((cmp.getPredicate() != p) && (a->lo < 0 || b->lo < 0))
    return std::nullopt;
  return compare(p, *a, *b);
}

std::optional<SymbolicSize> SymbolicSizes::evaluateProduct(AffineExpr expr,
                                                           ValueRange operands,
                                                           unsigned numDims) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    if (c.getValue() < 0)
      return std::nullopt;
    return SymbolicSize::ofConstant(c.getValue());
  }
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return sizeOf(operands[d.getPosition()]);
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return sizeOf(operands[numDims + s.getPosition()]);
  auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  std::optional<SymbolicSize> a =
      evaluateProduct(mul.getLHS(), operands, numDims);
  std::optional<SymbolicSize> b =
      evaluateProduct(mul.getRHS(), operands, numDims);
  if (!a || !b)
    return std::nullopt;
  return a->times(*b);
}

std::optional<SymbolicSize> SymbolicSizes::evaluate(Value value) {
  if (std::optional<int64_t> c = signedConstant(value)) {
    if (*c < 0)
      return std::nullopt;
    return SymbolicSize::ofConstant(*c);
  }
  // A value not seen through (an argument, a clamp `max(min(x, n), 0)` of a
  // slice's size) is a factor of its own: equal to itself only, its sign
  // unknown.
  SymbolicSize opaque{1, {{value, SymbolicSize::kOpaqueValue}}};
  Operation *op = value.getDefiningOp();
  if (!op)
    return opaque;
  std::optional<SymbolicSize> seen =
      llvm::TypeSwitch<Operation *, std::optional<SymbolicSize>>(op)
          // Casts that keep the value: sign extension always; zero
          // extension of a value known to be non-negative (no opaque
          // factor); never a narrowing cast (index to i32), which may wrap.
          .Case<arith::IndexCastOp, arith::ExtSIOp>(
              [&](auto cast) -> std::optional<SymbolicSize> {
                if (narrows(cast.getIn().getType(), cast.getType()))
                  return std::nullopt;
                return sizeOf(cast.getIn());
              })
          .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
              [&](auto cast) -> std::optional<SymbolicSize> {
                Value in = cast.getIn();
                if (in.getType().isInteger(1)) {
                  if (std::optional<bool> t = truthOf(in))
                    return SymbolicSize::ofConstant(*t ? 1 : 0);
                  return std::nullopt;
                }
                std::optional<SymbolicSize> s = sizeOf(in);
                if (!s || hasOpaqueFactor(*s) ||
                    narrows(in.getType(), cast.getType()))
                  return std::nullopt;
                return s;
              })
          .Case([&](arith::MulIOp mul) -> std::optional<SymbolicSize> {
            std::optional<SymbolicSize> a = sizeOf(mul.getLhs());
            std::optional<SymbolicSize> b = sizeOf(mul.getRhs());
            if (!a || !b)
              return std::nullopt;
            return a->times(*b);
          })
          .Case<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp,
                arith::CeilDivSIOp, arith::CeilDivUIOp>(
              [&](auto div) -> std::optional<SymbolicSize> {
                std::optional<SymbolicSize> a = sizeOf(div.getLhs());
                std::optional<SymbolicSize> b = sizeOf(div.getRhs());
                if (!a || !b)
                  return std::nullopt;
                // An unsigned division of a possibly negative value is not
                // the quotient of the products.
                using Div = decltype(div);
                constexpr bool isUnsigned =
                    std::is_same_v<Div, arith::DivUIOp> ||
                    std::is_same_v<Div, arith::CeilDivUIOp>;
                if (isUnsigned && (hasOpaqueFactor(*a) || hasOpaqueFactor(*b)))
                  return std::nullopt;
                return exactQuotient(*a, *b);
              })
          .Case([&](arith::AddIOp add) -> std::optional<SymbolicSize> {
            std::optional<SymbolicSize> a = sizeOf(add.getLhs());
            std::optional<SymbolicSize> b = sizeOf(add.getRhs());
            int64_t sum;
            if (a && b && a->isConstant() && b->isConstant() &&
                !llvm::AddOverflow(a->constant, b->constant, sum))
              return SymbolicSize::ofConstant(sum);
            // x + 0.
            if (a && b && b->isConstant() && b->constant == 0)
              return a;
            if (a && b && a->isConstant() && a->constant == 0)
              return b;
            return std::nullopt;
          })
          .Case([&](arith::SelectOp select) -> std::optional<SymbolicSize> {
            if (std::optional<bool> t = truthOf(select.getCondition()))
              return sizeOf(*t ? select.getTrueValue()
                               : select.getFalseValue());
            // Both arms the same size.
            std::optional<SymbolicSize> a = sizeOf(select.getTrueValue());
            std::optional<SymbolicSize> b = sizeOf(select.getFalseValue());
            if (a && b && *a == *b)
              return a;
            return std::nullopt;
          })
          // affine.apply of a product (upstream's reshape rewrites write
          // `s0 * 4` for a merged dim's size).
          .Case(
              [&](affine::AffineApplyOp apply) -> std::optional<SymbolicSize> {
                AffineMap map = apply.getAffineMap();
                if (map.getNumResults() != 1)
                  return std::nullopt;
                return evaluateProduct(map.getResult(0), apply.getMapOperands(),
                                       map.getNumDims());
              })
          .Case([&](tensor::DimOp dim) -> std::optional<SymbolicSize> {
            std::optional<int64_t> index = dim.getConstantIndex();
            if (!index)
              return std::nullopt;
            return dimOf(dim.getSource(), *index);
          })
          .Default([](Operation *) { return std::nullopt; });
  return seen ? seen : opaque;
}

std::optional<SymbolicSize> SymbolicSizes::evaluateDim(Value tensor,
                                                       int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || dim < 0 || dim >= type.getRank())
    return std::nullopt;
  if (!type.isDynamicDim(dim))
    return SymbolicSize::ofConstant(type.getDimSize(dim));
  // A run-time dim of a value the evaluator does not see through.
  SymbolicSize opaque{1, {{tensor, dim}}};
  Operation *op = tensor.getDefiningOp();
  if (!op)
    return opaque;
  auto result = cast<OpResult>(tensor);
  std::optional<SymbolicSize> seen =
      llvm::TypeSwitch<Operation *, std::optional<SymbolicSize>>(op)
          .Case([&](tensor::EmptyOp empty) {
            return sizeOf(empty.getDynamicSize(dim));
          })
          .Case([&](tensor::CastOp castOp) {
            return dimOf(castOp.getSource(), dim);
          })
          .Case([&](tensor::ReshapeOp reshape) -> std::optional<SymbolicSize> {
            auto shape =
                reshape.getShape().getDefiningOp<tensor::FromElementsOp>();
            if (!shape)
              return std::nullopt;
            return sizeOf(shape.getElements()[dim]);
          })
          .Case([&](tensor::CollapseShapeOp collapse)
                    -> std::optional<SymbolicSize> {
            SymbolicSize r = SymbolicSize::ofConstant(1);
            for (int64_t d : collapse.getReassociationIndices()[dim]) {
              std::optional<SymbolicSize> s = dimOf(collapse.getSrc(), d);
              if (!s)
                return std::nullopt;
              std::optional<SymbolicSize> p = r.times(*s);
              if (!p)
                return std::nullopt;
              r = *p;
            }
            return r;
          })
          .Case(
              [&](tensor::ExpandShapeOp expand) -> std::optional<SymbolicSize> {
                OpFoldResult size = expand.getMixedOutputShape()[dim];
                if (auto v = dyn_cast<Value>(size))
                  return sizeOf(v);
                return std::nullopt;
              })
          .Case([&](DestinationStyleOpInterface dps)
                    -> std::optional<SymbolicSize> {
            if (!dps.hasPureTensorSemantics())
              return std::nullopt;
            return dimOf(dps.getTiedOpOperand(result)->get(), dim);
          })
          .Default([](Operation *) { return std::nullopt; });
  return seen ? seen : opaque;
}
