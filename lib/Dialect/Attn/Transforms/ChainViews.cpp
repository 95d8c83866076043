//===- ChainViews.cpp - attn-fuse's views of upstream ops -----------------===//
//
// The views of ChainViews.h: elementwise ops, reductions and contractions
// in linalg and TOSA, read as indexing maps and splat constants.
//
//===----------------------------------------------------------------------===//

#include "ChainViews.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::attn::fuse {

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// The value of a float splat: a scalar constant, a splat dense constant
/// (arith.constant, tosa.const) or a linalg.fill of a scalar constant.
std::optional<APFloat> getSplatFloat(Value v) {
  APFloat f(0.0f);
  if (matchPattern(v, m_ConstantFloat(&f)))
    return f;
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat() &&
      isa<FloatType>(dense.getElementType()))
    return dense.getSplatValue<APFloat>();
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return getSplatFloat(fill.getInputs()[0]);
  return std::nullopt;
}

bool isSplatZero(Value v) {
  if (std::optional<APFloat> f = getSplatFloat(v))
    return f->isZero();
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat() &&
      isa<IntegerType>(dense.getElementType()))
    return dense.getSplatValue<APInt>().isZero();
  return false;
}

/// The splat constant converted to f32, if that is exact.
std::optional<float> toExactF32(APFloat f) {
  bool losesInfo = false;
  APFloat::opStatus st = f.convert(APFloat::IEEEsingle(),
                                   APFloat::rmNearestTiesToEven, &losesInfo);
  if (losesInfo || (st != APFloat::opOK && st != APFloat::opInexact))
    return std::nullopt;
  return f.convertToFloat();
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// A tensor operand: splats become scalars, and the input of a
/// linalg.broadcast (or of a generic that only yields its input) is read
/// directly with the composed map.
EwOperand normalizeOperand(Value tensor, AffineMap map) {
  if (std::optional<APFloat> f = getSplatFloat(tensor))
    return {Value(), AffineMap(), f};
  while (auto op = tensor.getDefiningOp<linalg::LinalgOp>()) {
    if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != op.getNumParallelLoops() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      break;
    Block *body = op.getBlock();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    if (body->getOperations().size() != 1 ||
        yield.getValues()[0] != body->getArgument(0))
      break;
    OpOperand *in = op.getDpsInputOperand(0);
    if (!isa<RankedTensorType>(in->get().getType()))
      break;
    map = op.getMatchingIndexingMap(in).compose(map);
    tensor = in->get();
  }
  return {tensor, map, std::nullopt};
}

/// Resolves a value used in the body of `op` to an operand.
FailureOr<EwOperand> resolveBodyValue(linalg::LinalgOp op, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (arg && arg.getOwner() == op.getBlock()) {
    if (arg.getArgNumber() >= op.getNumDpsInputs())
      return failure();
    OpOperand *in = op.getDpsInputOperand(arg.getArgNumber());
    if (!isa<RankedTensorType>(in->get().getType())) {
      if (std::optional<APFloat> f = getSplatFloat(in->get()))
        return EwOperand{Value(), AffineMap(), f};
      return EwOperand{}; // a non-constant scalar
    }
    return normalizeOperand(in->get(), op.getMatchingIndexingMap(in));
  }
  if (std::optional<APFloat> f = getSplatFloat(v))
    return EwOperand{Value(), AffineMap(), f};
  if (op->isAncestor(v.getParentBlock()->getParentOp()))
    return failure();
  return EwOperand{}; // a non-constant scalar
}

/// The elementwise view of the op defining `v`, if it has one.
FailureOr<Elementwise> getElementwise(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumResults() != 1)
    return failure();
  Elementwise ew;
  ew.op = def;
  if (auto op = dyn_cast<linalg::LinalgOp>(def)) {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != op.getNumParallelLoops() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      return failure();
    // One op besides constants and the yield, which yields its result.
    Block *body = op.getBlock();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    Operation *inner = yield.getNumOperands() == 1
                           ? yield.getValues()[0].getDefiningOp()
                           : nullptr;
    if (!inner || inner->getBlock() != body ||
        llvm::any_of(body->without_terminator(), [&](Operation &o) {
          return &o != inner && !o.hasTrait<OpTrait::ConstantLike>();
        }))
      return failure();
    if (isa<arith::AddFOp>(inner))
      ew.kind = EwKind::Add;
    else if (isa<arith::SubFOp>(inner))
      ew.kind = EwKind::Sub;
    else if (isa<arith::MulFOp>(inner))
      ew.kind = EwKind::Mul;
    else if (isa<arith::DivFOp>(inner))
      ew.kind = EwKind::Div;
    else if (isa<math::ExpOp>(inner))
      ew.kind = EwKind::Exp;
    else if (isa<math::LogOp>(inner))
      ew.kind = EwKind::Log;
    else if (isa<math::TanhOp>(inner))
      ew.kind = EwKind::Tanh;
    else if (isa<arith::ExtFOp>(inner))
      ew.kind = EwKind::Extend;
    else if (isa<arith::TruncFOp>(inner))
      ew.kind = EwKind::Truncate;
    else if (isa<arith::SelectOp>(inner))
      ew.kind = EwKind::Select;
    else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(inner))
      ew.kind = EwKind::Max;
    else
      return failure();
    for (Value operand : inner->getOperands()) {
      FailureOr<EwOperand> o = resolveBodyValue(op, operand);
      if (failed(o))
        return failure();
      ew.args.push_back(*o);
    }
  } else if (isa<tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::ExpOp,
                 tosa::LogOp, tosa::TanhOp, tosa::SelectOp, tosa::MaximumOp,
                 tosa::ReciprocalOp>(def)) {
    auto resultType = dyn_cast<RankedTensorType>(v.getType());
    if (!resultType)
      return failure();
    ValueRange operands = def->getOperands();
    if (auto mul = dyn_cast<tosa::MulOp>(def)) {
      if (!isSplatZero(mul.getShift()))
        return failure();
      operands = operands.take_front(2);
    }
    ew.kind = llvm::TypeSwitch<Operation *, EwKind>(def)
                  .Case([](tosa::AddOp) { return EwKind::Add; })
                  .Case([](tosa::SubOp) { return EwKind::Sub; })
                  .Case([](tosa::MulOp) { return EwKind::Mul; })
                  .Case([](tosa::ExpOp) { return EwKind::Exp; })
                  .Case([](tosa::LogOp) { return EwKind::Log; })
                  .Case([](tosa::TanhOp) { return EwKind::Tanh; })
                  .Case([](tosa::SelectOp) { return EwKind::Select; })
                  .Case([](tosa::MaximumOp) { return EwKind::Max; })
                  .Default([](Operation *) { return EwKind::Reciprocal; });
    MLIRContext *ctx = def->getContext();
    for (Value operand : operands) {
      auto t = dyn_cast<RankedTensorType>(operand.getType());
      if (!t || t.getRank() != resultType.getRank())
        return failure();
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < t.getRank(); ++d)
        exprs.push_back(t.getDimSize(d) == 1 && resultType.getDimSize(d) != 1
                            ? getAffineConstantExpr(0, ctx)
                            : getAffineDimExpr(d, ctx));
      ew.args.push_back(normalizeOperand(
          operand, AffineMap::get(t.getRank(), 0, exprs, ctx)));
    }
  } else {
    return failure();
  }
  // 1 / x is a reciprocal.
  if (ew.kind == EwKind::Div && ew.args[0].scalar &&
      ew.args[0].scalar->isExactlyValue(1.0)) {
    ew.kind = EwKind::Reciprocal;
    ew.args.erase(ew.args.begin());
  }
  return ew;
}

FailureOr<Elementwise> getElementwise(Operation *op) {
  if (op->getNumResults() != 1)
    return failure();
  return getElementwise(op->getResult(0));
}

FailureOr<Reduction> getReduction(Operation *def) {
  Reduction r;
  r.op = def;
  if (auto red = dyn_cast<tosa::ReduceMaxOp>(def)) {
    r = {def, true, red.getInput(), red.getAxis(), true};
    return r;
  }
  if (auto red = dyn_cast<tosa::ReduceSumOp>(def)) {
    r = {def, false, red.getInput(), red.getAxis(), true};
    return r;
  }
  auto op = dyn_cast<linalg::LinalgOp>(def);
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return failure();
  OpOperand *in = op.getDpsInputOperand(0);
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(in).isIdentity())
    return failure();
  SmallVector<unsigned> redDims;
  op.getReductionDims(redDims);
  r.dim = redDims[0];
  r.input = in->get();
  // Output map: the loops without the reduced one, or with 0 in its place.
  AffineMap outMap = op.getMatchingIndexingMap(init);
  SmallVector<AffineExpr> dropped, kept;
  MLIRContext *ctx = def->getContext();
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    if (d != r.dim)
      dropped.push_back(getAffineDimExpr(d, ctx));
    kept.push_back(d == r.dim ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(d, ctx));
  }
  if (outMap.getResults() == ArrayRef<AffineExpr>(dropped))
    r.keepDim = false;
  else if (outMap.getResults() == ArrayRef<AffineExpr>(kept))
    r.keepDim = true;
  else
    return failure();
  Block *body = op.getBlock();
  if (body->getOperations().size() != 2)
    return failure();
  Operation *inner = &body->front();
  if (inner->getNumOperands() != 2 ||
      !llvm::is_contained(inner->getOperands(), body->getArgument(0)) ||
      !llvm::is_contained(inner->getOperands(), body->getArgument(1)))
    return failure();
  std::optional<APFloat> start = getSplatFloat(init->get());
  if (!start)
    return failure();
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(inner)) {
    // From -inf, or from the lowest finite value (same max for any row
    // that has a value above it), or, for maxnumf, which ignores a NaN
    // operand, from NaN (linalg.softmax's own decomposition).
    bool nanStart = start->isNaN() && isa<arith::MaxNumFOp>(inner);
    if (!nanStart &&
        (!start->isNegative() || !(start->isInfinity() || start->isLargest())))
      return failure();
    r.isMax = true;
  } else if (isa<arith::AddFOp>(inner)) {
    if (!start->isZero())
      return failure();
    r.isMax = false;
  } else {
    return failure();
  }
  return r;
}

FailureOr<Contraction> getContraction(Operation *def, std::string &why) {
  Contraction c;
  c.op = def;
  MLIRContext *ctx = def->getContext();
  if (auto mm = dyn_cast<tosa::MatMulOp>(def)) {
    if (!isSplatZero(mm.getAZp()) || !isSplatZero(mm.getBZp())) {
      why = "tosa.matmul has non-zero zero points";
      return failure();
    }
    AffineExpr n, i, j, d;
    bindDims(ctx, n, i, j, d);
    c.lhs = mm.getA();
    c.rhs = mm.getB();
    c.lhsMap = AffineMap::get(4, 0, {n, i, d}, ctx);
    c.rhsMap = AffineMap::get(4, 0, {n, d, j}, ctx);
    c.outMap = AffineMap::get(4, 0, {n, i, j}, ctx);
    c.redLoop = 3;
    return c;
  }
  auto op = dyn_cast<linalg::LinalgOp>(def);
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op)) {
    why = "not a contraction";
    return failure();
  }
  if (op.getNumReductionLoops() != 1) {
    why = "the contraction reduces over more than one dimension";
    return failure();
  }
  if (!isSplatZero(op.getDpsInitOperand(0)->get())) {
    why = "the contraction does not start from zero";
    return failure();
  }
  SmallVector<unsigned> red;
  op.getReductionDims(red);
  c.redLoop = red[0];
  c.lhs = op.getDpsInputOperand(0)->get();
  c.rhs = op.getDpsInputOperand(1)->get();
  c.lhsMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  c.rhsMap = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  c.outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (AffineMap m : {c.lhsMap, c.rhsMap, c.outMap})
    if (!m.isProjectedPermutation(/*allowZeroInResults=*/false)) {
      why = "the contraction has a non-permutation indexing map";
      return failure();
    }
  return c;
}

/// Position of loop `loop` among the results of `map`, or -1.
int64_t positionOf(AffineMap map, unsigned loop) {
  for (auto [k, e] : llvm::enumerate(map.getResults()))
    if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() == loop)
      return k;
  return -1;
}

/// For an operand `x` read through `map` from the loops of contraction `op`
/// whose batch loops are `batch`: x as a broadcast of a tensor that lacks
/// exactly one batch loop of size > 1, not the first batch loop (the query
/// heads of a KV head: grouped-query K or V), and possibly unit batch loops.
std::optional<BroadcastOperand> groupBroadcastOf(Operation *op, Value x,
                                                 AffineMap map,
                                                 ArrayRef<unsigned> batch) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return std::nullopt;
  SmallVector<int64_t> sizes = linalgOp.getStaticLoopRanges();
  EwOperand n = normalizeOperand(x, map);
  // Broadcast by a producer (linalg.broadcast, a copying generic) or read
  // directly through a map that lacks the group loop.
  if (!n.tensor || !n.map)
    return std::nullopt;
  BroadcastOperand b{n, {}};
  int64_t real = 0;
  for (auto [k, loop] : llvm::enumerate(batch)) {
    if (positionOf(n.map, loop) >= 0)
      continue;
    b.missing.push_back(k);
    if (sizes[loop] != 1) {
      if (k == 0)
        return std::nullopt;
      ++real;
    }
  }
  if (real != 1)
    return std::nullopt;
  return b;
}

/// The batch loop of size > 1 that `b` lacks (the group dim).
int64_t groupIndexOf(const BroadcastOperand &b, Operation *op,
                     ArrayRef<unsigned> batch) {
  SmallVector<int64_t> sizes = cast<linalg::LinalgOp>(op).getStaticLoopRanges();
  for (int64_t k : b.missing)
    if (sizes[batch[k]] != 1)
      return k;
  llvm_unreachable("a group broadcast lacks one real batch loop");
}

/// The permutation that reorders the dims of an operand read through `map`
/// into `loops` (for linalg.transpose: result dim k = operand dim perm[k]).
/// Fails unless the operand has exactly these loops.
FailureOr<SmallVector<int64_t>> permutationTo(AffineMap map,
                                              ArrayRef<unsigned> loops) {
  if (map.getNumResults() != loops.size())
    return failure();
  SmallVector<int64_t> perm;
  for (unsigned l : loops) {
    int64_t p = positionOf(map, l);
    if (p < 0)
      return failure();
    perm.push_back(p);
  }
  return perm;
}

//===----------------------------------------------------------------------===//
// Queries for the matcher and its explain notes
//===----------------------------------------------------------------------===//

/// `t` as MLIR prints it.
std::string typeName(Type t) {
  std::string text;
  llvm::raw_string_ostream os(text);
  t.print(os);
  return text;
}

/// A user of `v` other than `op` (the one the chain expects), or null.
Operation *userOtherThan(Value v, Operation *op) {
  for (Operation *user : v.getUsers())
    if (user != op)
      return user;
  return nullptr;
}

/// The op that defines `v`, or for a block argument the op whose region
/// holds it (the function, or a generic for a body argument).
Operation *producerOf(Value v) {
  if (Operation *def = v.getDefiningOp())
    return def;
  return cast<BlockArgument>(v).getOwner()->getParentOp();
}

/// Whether `op` is of a kind an attention chain is made of: an elementwise
/// op, a reduction or a contraction (as the views see them).
bool isChainLike(Operation *op) {
  std::string unused;
  return op->getNumResults() == 1 &&
         (succeeded(getElementwise(op)) || succeeded(getReduction(op)) ||
          succeeded(getContraction(op, unused)));
}

/// Where the chain expected `v` to have one user of a certain kind and it
/// does not: the only user (of another kind), or of several the one that
/// cannot be part of the chain (a return, a reshape), else the last of them;
/// or, where `v` has no user, its producer.
Operation *blockingUser(Value v) {
  SmallVector<Operation *> users(v.getUsers());
  if (users.empty())
    return producerOf(v);
  if (users.size() == 1)
    return users.front();
  for (Operation *user : users)
    if (!isChainLike(user))
      return user;
  Operation *last = users.front();
  for (Operation *user : users)
    if (user->getBlock() == last->getBlock() && last->isBeforeInBlock(user))
      last = user;
  return last;
}

bool isIdentityOperand(const EwOperand &o, Value v) {
  return o.tensor == v && o.map && o.map.isIdentity();
}

StringRef describe(EwKind kind) {
  switch (kind) {
  case EwKind::Add:
    return "an addition";
  case EwKind::Sub:
    return "a subtraction";
  case EwKind::Mul:
    return "a multiplication";
  case EwKind::Div:
    return "a division";
  case EwKind::Exp:
    return "an exp";
  case EwKind::Log:
    return "a log";
  case EwKind::Tanh:
    return "a tanh";
  case EwKind::Select:
    return "a select";
  case EwKind::Max:
    return "a maximum";
  case EwKind::Reciprocal:
    return "a reciprocal";
  case EwKind::Extend:
    return "a widening";
  case EwKind::Truncate:
    return "a narrowing";
  }
  llvm_unreachable("unknown EwKind");
}

} // namespace mlir::attn::fuse
