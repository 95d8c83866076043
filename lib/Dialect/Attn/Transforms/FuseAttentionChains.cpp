//===- FuseAttentionChains.cpp - attn-fuse pass ---------------------------===//
//
// This file implements the attn-fuse pass: it recognizes unfused attention
// chains written with upstream ops on tensors (linalg named ops and
// generics, or TOSA) and replaces each chain with one `attn.attention`, so
// that no [.., Lq, Lk] score or probability tensor remains.
//
// A chain is matched from its softmax (the anchor: a `linalg.softmax`, or
// the row-max reduction of a decomposed softmax) backwards to the Q·Kᵀ
// contraction and forwards to the P·V contraction. Every op is looked at
// through one of three views, whatever its dialect:
//  - Contraction: a linalg contraction (matmul, batch_matmul with or without
//    indexing_maps, a mul/add generic) or tosa.matmul, as indexing maps;
//  - Elementwise: a parallel linalg op whose body is one arith/math op, or a
//    TOSA elementwise op, with each operand as a tensor plus indexing map
//    (broadcasts folded in) or as a splat constant;
//  - Reduction: a max/sum over one dimension (linalg or TOSA).
// The semantic checks (which dimension is reduced, which operand is Q, what
// the constants are, that no intermediate has another user) are made on the
// views, so the linalg and the TOSA forms share them.
//
// Causal masks built from `linalg.index` comparisons (a generic whose body
// compares the key index j with the query index i plus a constant and
// selects -inf, or adds a select'd -inf/0 bias, where the comparison
// excludes) become `causal` / `window` attributes: allowed j <= i gives
// top_left, j <= i + (Lk - Lq) (static) bottom_right, j <= i + c (c > 0)
// window = [-1, c]. The same holds for an i1 keep mask or a float bias
// tensor produced by such a generic without inputs (e.g. [Lq, Lk],
// broadcast); if that tensor is not recognized it stays a tensor mask.
//
// Dropout between the softmax and P·V (P' = P * keep * c, over one or more
// elementwise steps, with an i1 keep mask seen directly, through uitofp /
// select / tosa.cast, or pre-scaled, and c = 1/(1 - p)) becomes dropout_p
// and the explicit dropout_mask operand (docs/semantics.md, 8.7).
//
// This file matches (ChainMatcher, filling an AttentionChain.h Chain); the
// rewrite into attn.attention is RewriteAttentionChain.cpp.
//
//===----------------------------------------------------------------------===//

#include "AttentionChain.h"
#include "attnopt/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNFUSEPASS
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"

namespace {

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

/// One operand of an elementwise op: a tensor read through `map` (from the
/// op's loops, which are the dimensions of its result), a splat constant
/// (`scalar`), or, with neither, a scalar that is not a constant.
struct EwOperand {
  Value tensor;
  AffineMap map;
  std::optional<APFloat> scalar;
};

enum class EwKind {
  Add,
  Sub,
  Mul,
  Div,
  Exp,
  Log,
  Tanh,
  Select,
  Reciprocal,
  Extend,  // arith.extf to a wider float
  Truncate // arith.truncf to a narrower float
};

struct Elementwise {
  Operation *op = nullptr;
  EwKind kind;
  SmallVector<EwOperand, 3> args;
};

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
    else
      return failure();
    for (Value operand : inner->getOperands()) {
      FailureOr<EwOperand> o = resolveBodyValue(op, operand);
      if (failed(o))
        return failure();
      ew.args.push_back(*o);
    }
  } else if (isa<tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::ExpOp,
                 tosa::LogOp, tosa::TanhOp, tosa::SelectOp,
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

/// A max or sum over dimension `dim` of `input`.
struct Reduction {
  Operation *op = nullptr;
  bool isMax = false;
  Value input;
  int64_t dim = 0;
  bool keepDim = false;
};

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
    if (!nanStart && (!start->isNegative() ||
                      !(start->isInfinity() || start->isLargest())))
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

/// out[o] = sum_red lhs[lhsMap] * rhs[rhsMap], from zero.
struct Contraction {
  Operation *op = nullptr;
  Value lhs, rhs;
  AffineMap lhsMap, rhsMap, outMap;
  unsigned redLoop = 0;
};

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

/// A K or V operand read through a broadcast: the normalized operand (the
/// tensor before linalg.broadcast / a copy generic, with the composed map)
/// and the indices, in `batch`, of the batch loops it lacks.
struct BroadcastOperand {
  EwOperand operand;
  SmallVector<int64_t> missing;
};

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
  SmallVector<int64_t> sizes =
      cast<linalg::LinalgOp>(op).getStaticLoopRanges();
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
// Matching a chain
//===----------------------------------------------------------------------===//

struct FuseOptions {
  bool inexactReciprocal = false;
  bool largeNegativeIsMasked = false;
  bool allowPrecisionChange = false;
};

using fuse::Chain;
using fuse::kMaxScoreRank;
using fuse::rewriteChain;

/// A softcap c * tanh(s / c): c, the tanh, its operand s / c, and s;
/// `approx` when the tanh allows approximation (softcap_approx).
struct SoftcapMatch {
  float cap;
  Operation *tanhOp;
  Value inner, scores;
  bool approx;
};

/// Whether the tanh of a softcap (a generic around math.tanh, or tosa.tanh)
/// allows an approximate result: math.tanh with fastmath `afn`, as a front
/// end writes it under "fast math". Its raised op gets softcap_approx.
bool allowsApproximation(Operation *tanhOp) {
  bool afn = false;
  tanhOp->walk([&](math::TanhOp t) {
    afn = arith::bitEnumContainsAll(t.getFastmath(), arith::FastMathFlags::afn);
  });
  return afn;
}

/// What the dropout step multiplies the probabilities by: P itself (which
/// must occur once), i1 keep masks read from the score loops, and the
/// product of the constant factors.
struct DropoutFactors {
  int64_t probs = 0;
  SmallVector<EwOperand> keeps;
  double scale = 1.0;
};

class ChainMatcher {
public:
  ChainMatcher(const FuseOptions &options) : options(options) {}

  /// Matches the chain around a softmax anchor; on failure, `reason` says
  /// why and `blocker` is the first op that blocks it (explain points a
  /// note at it).
  LogicalResult match(Operation *anchor, Chain &chain);
  std::string reason;
  Operation *blocker = nullptr;

private:
  /// Fails at `at`, the first op that blocks the chain. Every failure names
  /// one: an op of the chain that does not fit, the extra user of an
  /// intermediate, or the op inside a generic's body that is not understood.
  LogicalResult fail(const Twine &msg, Operation *at) {
    assert(at && "a failure names the op that blocks the chain");
    reason = msg.str();
    blocker = at;
    return failure();
  }
  /// Fails with `prefix` before the reason of a nested match that failed,
  /// keeping its blocker.
  LogicalResult failWithPrefix(StringRef prefix) {
    reason = (prefix + reason).str();
    return failure();
  }
  LogicalResult matchSoftmax(Operation *anchor, Chain &chain, Value &scores,
                             Value &probs);
  LogicalResult matchScores(Value scores, Chain &chain);
  LogicalResult matchQK(Value scores, Chain &chain);
  LogicalResult matchPV(Value probs, Chain &chain);
  LogicalResult matchDropout(Value &probs, Chain &chain);
  /// Dropout steps seen so far: their ops and combined factors.
  struct DropoutSteps {
    DropoutFactors total;
    SmallVector<Operation *> ops;
  };
  /// Whether `user` multiplies `x` elementwise (a dropout step, whose
  /// factors are added to `steps`); fails where it does so but not by a
  /// keep mask and constants.
  FailureOr<bool> collectDropoutStep(Operation *user, Value x,
                                     DropoutSteps &steps);
  LogicalResult recordDropout(const DropoutSteps &steps, Chain &chain);
  /// `op` as x / l or x * (1 / l) for the row sums l of `sum`: the ops it
  /// takes (reciprocal, product), and whether the reciprocal has another
  /// user.
  struct Normalization {
    SmallVector<Operation *, 2> ops;
    bool sharedReciprocal;
  };
  std::optional<Normalization>
  normalizationOf(Operation *op, Value x, const Reduction &sum, int64_t rank);
  /// `reader` is the op that reads `t`.
  LogicalResult collectTensorFactors(Value t, AffineMap map, Value probs,
                                     Operation *reader, DropoutFactors &f);
  LogicalResult collectBodyFactors(linalg::GenericOp g, Value v, AffineMap map,
                                   Value probs, DropoutFactors &f);
  LogicalResult collectBodyKeep(linalg::GenericOp g, Value cond, AffineMap map,
                                DropoutFactors &f);
  /// The rank limits, and with more than two batch dims that K and V can
  /// have the leading ones merged (Chain::mergedBatchDims).
  LogicalResult checkMergedBatchDims(const Chain &chain);
  /// `reader` is the op that reads the mask-like operand `m`.
  LogicalResult matchScoreDims(const EwOperand &m, int64_t rank, StringRef what,
                               Operation *reader, SmallVector<int64_t> &dims);
  LogicalResult matchMask(const EwOperand &m, Operation *reader, Chain &chain);
  LogicalResult peelWidening(Value &x, Chain &chain);
  LogicalResult peelNarrowing(Value &probs, Chain &chain);
  LogicalResult matchLogSumExpSoftmax(const Reduction &max, Value scores,
                                      Chain &chain, Value &probs);
  /// The single user of `v` as an elementwise op of `kind` whose operand
  /// `v` is read with the identity map, or failure.
  FailureOr<Elementwise> onlyUserOfKind(Value v, EwKind kind);
  bool isRowOperand(const EwOperand &o, const Reduction &red, int64_t rank);
  bool isMaskFill(const APFloat &fill) const;
  LogicalResult matchIndexMask(Value x, Chain &chain, Value &next,
                               bool &matched);
  LogicalResult matchCausalCond(Value cond, Block *body,
                                ArrayRef<int64_t> loopToScoreDim,
                                bool condKeeps, Chain &chain);
  /// One side of the allowed band, j <= i + a (`upper`) or j >= i + a.
  struct IndexBound {
    bool upper;
    int64_t a;
  };
  FailureOr<IndexBound> matchIndexBound(Value cond, Block *body,
                                        ArrayRef<int64_t> loopToScoreDim,
                                        bool condKeeps, const Chain &chain);
  /// Records the band; `cond` is the comparison (or the and/or of two)
  /// that bounds it.
  LogicalResult recordIndexBand(std::optional<int64_t> lo,
                                std::optional<int64_t> hi, Operation *cond,
                                Chain &chain);
  LogicalResult matchIndexMaskTensor(const EwOperand &m, bool isBool,
                                     Chain &chain);
  LogicalResult matchConstantBandMask(const EwOperand &m, bool isBool,
                                      Chain &chain);

  const FuseOptions &options;
};

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
         (succeeded(getElementwise(op->getResult(0))) ||
          succeeded(getReduction(op)) || succeeded(getContraction(op, unused)));
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

/// The stat of `red` read back for every element of a row.
bool ChainMatcher::isRowOperand(const EwOperand &o, const Reduction &red,
                                int64_t rank) {
  if (o.tensor != red.op->getResult(0) || !o.map)
    return false;
  MLIRContext *ctx = red.op->getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == red.dim) {
      if (red.keepDim)
        exprs.push_back(getAffineConstantExpr(0, ctx));
      continue;
    }
    exprs.push_back(getAffineDimExpr(d, ctx));
  }
  return o.map == AffineMap::get(rank, 0, exprs, ctx);
}

/// The value a select puts at excluded positions: -inf, or (option
/// large-negative-is-masked) a finite value <= -1e4.
bool ChainMatcher::isMaskFill(const APFloat &f) const {
  if (f.isInfinity() && f.isNegative())
    return true;
  if (!options.largeNegativeIsMasked || f.isNaN())
    return false;
  APFloat fill = f;
  bool losesInfo;
  fill.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
               &losesInfo);
  return fill.convertToDouble() <= -1.0e4;
}

//===----------------------------------------------------------------------===//
// Causal masks from linalg.index comparisons
//===----------------------------------------------------------------------===//

/// sum_l coef[l] * (linalg.index l) + c, over the loops of a generic.
struct IndexForm {
  SmallVector<int64_t> coef;
  int64_t c = 0;
};

/// Adds `sign` * `v` to `form`; `v` is built from linalg.index ops of
/// `body`, integer constants, addi, subi and index casts.
bool addIndexForm(Value v, Block *body, int64_t sign, IndexForm &form) {
  Type t = v.getType();
  if (!t.isIndex() && !(t.isSignlessInteger() && t.getIntOrFloatBitWidth() >= 32))
    return false;
  APInt cst;
  if (matchPattern(v, m_ConstantInt(&cst))) {
    if (cst.getSignificantBits() > 32)
      return false;
    form.c += sign * cst.getSExtValue();
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != body)
    return false;
  if (auto idx = dyn_cast<linalg::IndexOp>(def)) {
    if (idx.getDim() >= form.coef.size())
      return false;
    form.coef[idx.getDim()] += sign;
    return true;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return addIndexForm(def->getOperand(0), body, sign, form);
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return addIndexForm(add.getLhs(), body, sign, form) &&
           addIndexForm(add.getRhs(), body, sign, form);
  if (auto sub = dyn_cast<arith::SubIOp>(def))
    return addIndexForm(sub.getLhs(), body, sign, form) &&
           addIndexForm(sub.getRhs(), body, -sign, form);
  return false;
}

/// "i", "i + 3", "i - 2".
static std::string formatQueryPlus(int64_t off) {
  if (off == 0)
    return "i";
  return (off > 0 ? "i + " + Twine(off) : "i - " + Twine(-off)).str();
}

/// Recognizes `cond` (an i1 of `body`) as a comparison of the key index j
/// with the query index i plus a constant, or as two of them bounding a
/// band from both sides (`andi` of the allowed conditions, `ori` of the
/// excluded ones), and, with `condKeeps` saying whether true means allowed,
/// records the allowed band j <= i + R (and j >= i + L) as causal / window
/// on `chain`.
LogicalResult ChainMatcher::matchCausalCond(Value cond, Block *body,
                                            ArrayRef<int64_t> loopToScoreDim,
                                            bool condKeeps, Chain &chain) {
  Operation *def = cond.getDefiningOp();
  if (def && def->getBlock() == body && isa<arith::AndIOp, arith::OrIOp>(def)) {
    // keep = c1 && c2, or excluded = c1 || c2: each side one bound.
    if (isa<arith::AndIOp>(def) != condKeeps)
      return fail(Twine("the index-built mask ") +
                      (condKeeps ? "keeps keys where either"
                                 : "excludes keys where both") +
                      " of two comparisons hold: not a band",
                  def);
    FailureOr<IndexBound> b0 = matchIndexBound(
        def->getOperand(0), body, loopToScoreDim, condKeeps, chain);
    if (failed(b0))
      return failure();
    FailureOr<IndexBound> b1 = matchIndexBound(
        def->getOperand(1), body, loopToScoreDim, condKeeps, chain);
    if (failed(b1))
      return failure();
    if (b0->upper == b1->upper)
      return fail("the index-built mask bounds the keys twice on the same "
                  "side",
                  def);
    const IndexBound &upper = b0->upper ? *b0 : *b1;
    const IndexBound &lower = b0->upper ? *b1 : *b0;
    return recordIndexBand(lower.a, upper.a, def, chain);
  }
  FailureOr<IndexBound> bound =
      matchIndexBound(cond, body, loopToScoreDim, condKeeps, chain);
  if (failed(bound))
    return failure();
  Operation *cmp = cond.getDefiningOp();
  if (!bound->upper)
    return recordIndexBand(bound->a, std::nullopt, cmp, chain);
  return recordIndexBand(std::nullopt, bound->a, cmp, chain);
}

FailureOr<ChainMatcher::IndexBound>
ChainMatcher::matchIndexBound(Value cond, Block *body,
                              ArrayRef<int64_t> loopToScoreDim, bool condKeeps,
                              const Chain &chain) {
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp->getBlock() != body)
    return fail("the index-built mask condition is not an arith.cmpi",
                cond.getDefiningOp() && cond.getDefiningOp()->getBlock() == body
                    ? cond.getDefiningOp()
                    : body->getParentOp());
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  if (pred == P::eq || pred == P::ne)
    return fail("the index-built mask compares for (in)equality", cmp);
  bool isUnsigned =
      pred == P::ugt || pred == P::uge || pred == P::ult || pred == P::ule;
  IndexForm lhs, rhs;
  lhs.coef.assign(loopToScoreDim.size(), 0);
  rhs.coef.assign(loopToScoreDim.size(), 0);
  if (!addIndexForm(cmp.getLhs(), body, 1, lhs) ||
      !addIndexForm(cmp.getRhs(), body, 1, rhs))
    return fail("the index-built mask compares values that are not "
                "linalg.index sums plus constants",
                cmp);
  // An unsigned comparison is the integer one if neither side can be
  // negative (indices are >= 0).
  if (isUnsigned)
    for (const IndexForm *f : {&lhs, &rhs})
      if (f->c < 0 || llvm::any_of(f->coef, [](int64_t x) { return x < 0; }))
        return fail("the index-built mask compares unsigned a side that may "
                    "be negative",
                    cmp);
  // lhs - rhs = s * (j - i) + c.
  int64_t r = chain.rank, coefQ = 0, coefK = 0;
  for (auto [l, d] : llvm::enumerate(loopToScoreDim)) {
    int64_t x = lhs.coef[l] - rhs.coef[l];
    if (x == 0)
      continue;
    if (d == r - 2)
      coefQ += x;
    else if (d == r - 1)
      coefK += x;
    else
      return fail("the index-built mask compares loop " + Twine(l) +
                      (d < 0 ? Twine(", a broadcast dimension")
                             : ", score dimension " + Twine(d)) +
                      ", not only the query (" + Twine(r - 2) + ") and key (" +
                      Twine(r - 1) + ") dimensions",
                  cmp);
  }
  if (!((coefK == 1 && coefQ == -1) || (coefK == -1 && coefQ == 1)))
    return fail("the index-built mask does not compare the key index with "
                "the query index plus a constant",
                cmp);
  int64_t c = lhs.c - rhs.c;
  // s * D + c `pred` 0, with D = j - i: D `pred'` K.
  bool greater, strict;
  switch (pred) {
  case P::sgt: case P::ugt: greater = true; strict = true; break;
  case P::sge: case P::uge: greater = true; strict = false; break;
  case P::slt: case P::ult: greater = false; strict = true; break;
  default: greater = false; strict = false; break;
  }
  int64_t k = -c;
  if (coefK == -1) {
    greater = !greater;
    k = c;
  }
  // cond <=> D <= a (upper) or D >= a (lower).
  bool upper = !greater;
  int64_t a = strict ? (greater ? k + 1 : k - 1) : k;
  if (!condKeeps) {
    a = upper ? a + 1 : a - 1;
    upper = !upper;
  }
  return IndexBound{upper, a};
}

/// Records the allowed band lo <= j - i <= hi (either side none =
/// unbounded) as causal / window (docs/semantics.md §4: j <= i + delta +
/// right and j >= i + delta - left), as matchConstantBandMask does.
LogicalResult ChainMatcher::recordIndexBand(std::optional<int64_t> lo,
                                            std::optional<int64_t> hi,
                                            Operation *cond, Chain &chain) {
  if (chain.causal != CausalMode::none || chain.windowRight || chain.windowLeft)
    return fail("two index-built causal masks", cond);
  const bool staticLengths =
      !ShapedType::isDynamic(chain.lq) && !ShapedType::isDynamic(chain.lk);
  int64_t delta = 0;
  if (!hi) {
    // Only a lower bound: a window open to the right.
  } else if (*hi == 0) {
    chain.causal = CausalMode::top_left;
  } else if (staticLengths && *hi == chain.lk - chain.lq) {
    chain.causal = CausalMode::bottom_right;
    delta = *hi;
  } else if (*hi > 0) {
    chain.windowRight = *hi;
  } else {
    return fail(
        "the index-built mask allows j <= " + formatQueryPlus(*hi) +
            ", which is neither top_left (0) nor bottom_right (Lk - Lq" +
            (staticLengths ? " = " + Twine(chain.lk - chain.lq)
                           : Twine(", not static")) +
            ") nor a window [-1, c >= 0]",
        cond);
  }
  if (lo) {
    if (delta - *lo < 0) {
      chain.causal = CausalMode::none;
      chain.windowRight.reset();
      return fail(
          "the index-built mask allows j >= " + formatQueryPlus(*lo) +
              (hi ? " and j <= " + formatQueryPlus(*hi) : std::string()) +
              ", a band that does not contain the diagonal of its "
              "causal rule (a window needs left >= 0)",
          cond);
    }
    chain.windowLeft = delta - *lo;
  }
  return success();
}

/// Body ops an index-built mask may have.
bool isIndexMaskBodyOp(Operation &o) {
  return o.hasTrait<OpTrait::ConstantLike>() ||
         isa<linalg::IndexOp, arith::AddIOp, arith::SubIOp, arith::CmpIOp,
             arith::AndIOp, arith::OrIOp, arith::IndexCastOp,
             arith::IndexCastUIOp, arith::SelectOp, arith::AddFOp,
             linalg::YieldOp>(o);
}

/// A generic with all-parallel loops and an identity result map whose body
/// reads linalg.index.
linalg::GenericOp getIndexGeneric(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || !g.hasPureTensorSemantics() || g.getNumDpsInits() != 1 ||
      g.getNumLoops() != g.getNumParallelLoops() ||
      !g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity() ||
      g.getBody()->getOps<linalg::IndexOp>().empty())
    return {};
  return g;
}

/// In-body causal masking of the scores `x`:
///   select(cond, fill, s), select(cond, s, fill),
///   s + select(cond, fill, 0), s + select(cond, 0, fill),
/// with `cond` from linalg.index comparisons. `matched` is false if `x` is
/// not such a generic at all; then nothing is recorded.
LogicalResult ChainMatcher::matchIndexMask(Value x, Chain &chain, Value &next,
                                           bool &matched) {
  matched = false;
  linalg::GenericOp g = getIndexGeneric(x);
  if (!g || g.getNumLoops() != static_cast<unsigned>(chain.rank))
    return success();
  Block *body = g.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *top = yield.getNumOperands() == 1
                       ? yield.getValues()[0].getDefiningOp()
                       : nullptr;
  if (!top || top->getBlock() != body ||
      !isa<arith::SelectOp, arith::AddFOp>(top))
    return success();
  matched = true;
  if (auto other = llvm::find_if_not(*body, isIndexMaskBodyOp);
      other != body->end())
    return fail("the index-built mask has other operations in its body",
                &*other);
  auto isScores = [&](Value v) -> bool {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != body ||
        arg.getArgNumber() >= g.getNumDpsInputs())
      return false;
    FailureOr<EwOperand> o = resolveBodyValue(g, v);
    if (failed(o) || !o->tensor || !o->map.isIdentity())
      return false;
    next = o->tensor;
    return true;
  };
  auto scalarOf = [&](Value v) -> std::optional<APFloat> {
    FailureOr<EwOperand> o = resolveBodyValue(g, v);
    if (failed(o) || o->tensor)
      return std::nullopt;
    return o->scalar;
  };
  Value cond;
  bool condKeeps;
  if (auto sel = dyn_cast<arith::SelectOp>(top)) {
    // select(cond, fill, s) or select(cond, s, fill).
    condKeeps = isScores(sel.getTrueValue());
    Value fillValue = condKeeps ? sel.getFalseValue() : sel.getTrueValue();
    if (!condKeeps && !isScores(sel.getFalseValue()))
      return fail("the index-built mask does not select the scores", sel);
    std::optional<APFloat> fill = scalarOf(fillValue);
    if (!fill)
      return fail("the index-built mask selects a non-constant", sel);
    if (!isMaskFill(*fill))
      return fail("the index-built mask sets excluded scores to a finite "
                  "value, not -inf (see option large-negative-is-masked)",
                  sel);
    cond = sel.getCondition();
  } else {
    // s + select(cond, fill, 0) or s + select(cond, 0, fill).
    auto add = cast<arith::AddFOp>(top);
    Value bias;
    if (isScores(add.getLhs()))
      bias = add.getRhs();
    else if (isScores(add.getRhs()))
      bias = add.getLhs();
    else
      return fail("the index-built mask does not add to the scores", add);
    auto bsel = bias.getDefiningOp<arith::SelectOp>();
    if (!bsel || bsel->getBlock() != body)
      return fail("the index-built bias is not a select",
                  bias.getDefiningOp() &&
                          bias.getDefiningOp()->getBlock() == body
                      ? bias.getDefiningOp()
                      : add.getOperation());
    std::optional<APFloat> t = scalarOf(bsel.getTrueValue()),
                           f = scalarOf(bsel.getFalseValue());
    if (!t || !f)
      return fail("the index-built bias selects a non-constant", bsel);
    condKeeps = t->isZero();
    if (!(condKeeps ? *t : *f).isZero())
      return fail("the index-built bias is not 0 at allowed positions", bsel);
    if (!isMaskFill(condKeeps ? *f : *t))
      return fail("the index-built bias is finite, not -inf (see option "
                  "large-negative-is-masked)",
                  bsel);
    cond = bsel.getCondition();
  }
  SmallVector<int64_t> loopToScoreDim;
  for (int64_t l = 0; l < chain.rank; ++l)
    loopToScoreDim.push_back(l);
  return matchCausalCond(cond, body, loopToScoreDim, condKeeps, chain);
}

/// A mask tensor produced by an input-less index generic: an i1 keep mask
/// yielding a comparison, or a float bias yielding select(cond, fill, 0) /
/// select(cond, 0, fill). On success the mask becomes causal / window.
LogicalResult ChainMatcher::matchIndexMaskTensor(const EwOperand &m,
                                                 bool isBool, Chain &chain) {
  linalg::GenericOp g = getIndexGeneric(m.tensor);
  if (!g || g.getNumDpsInputs() != 0 ||
      g.getNumLoops() != chain.maskDims.size())
    return failure();
  Block *body = g.getBody();
  if (!llvm::all_of(*body, isIndexMaskBodyOp))
    return failure();
  Value y = cast<linalg::YieldOp>(body->getTerminator()).getValues()[0];
  Value cond = y;
  // An exclusion mask (select(m, -inf, s)) is true where keys are excluded.
  bool condKeeps = !chain.maskInverted;
  if (!isBool) {
    auto sel = y.getDefiningOp<arith::SelectOp>();
    std::optional<APFloat> t, f;
    if (!sel || !(t = getSplatFloat(sel.getTrueValue())) ||
        !(f = getSplatFloat(sel.getFalseValue())))
      return failure();
    condKeeps = t->isZero();
    if (!(condKeeps ? *t : *f).isZero() || !isMaskFill(condKeeps ? *f : *t))
      return failure();
    cond = sel.getCondition();
  }
  // Loop l is mask dim l, which is score dim maskDims[l] (a size-1 dim read
  // at 0 is broadcast: its index is always 0, rejected if compared).
  SmallVector<int64_t> loopToScoreDim;
  for (auto [l, e] : llvm::enumerate(m.map.getResults()))
    loopToScoreDim.push_back(isa<AffineDimExpr>(e) ? chain.maskDims[l] : -1);
  Chain trial = chain;
  std::string saved = reason;
  if (failed(matchCausalCond(cond, body, loopToScoreDim, condKeeps, trial))) {
    reason = saved;
    return failure();
  }
  chain.causal = trial.causal;
  chain.windowRight = trial.windowRight;
  chain.windowLeft = trial.windowLeft;
  return success();
}

/// A constant mask (a materialized tril/band buffer, as exported models
/// carry) that only varies over (i, j) and allows exactly a band
/// i + lo <= j <= i + hi (either side possibly unbounded): on success it
/// becomes causal / window, as the index-built masks do. Float masks must
/// hold 0 at allowed positions and the fill (-inf, or with
/// large-negative-is-masked a value <= -1e4) elsewhere.
LogicalResult ChainMatcher::matchConstantBandMask(const EwOperand &m,
                                                  bool isBool, Chain &chain) {
  DenseElementsAttr values;
  if (!matchPattern(m.tensor, m_Constant(&values)))
    return failure();
  auto type = cast<RankedTensorType>(m.tensor.getType());
  int64_t r = chain.rank;
  int64_t iDim = -1, jDim = -1;
  for (auto [k, d] : llvm::enumerate(chain.maskDims)) {
    if (d == r - 2 && type.getDimSize(k) > 1)
      iDim = k;
    else if (d == r - 1 && type.getDimSize(k) > 1)
      jDim = k;
  }
  int64_t lq = chain.lq, lk = chain.lk;
  if (jDim < 0 || ShapedType::isDynamic(lq) || ShapedType::isDynamic(lk) ||
      (iDim >= 0 && type.getDimSize(iDim) != lq) || type.getDimSize(jDim) != lk)
    return failure();
  SmallVector<int64_t> strides = computeStrides(type.getShape());
  auto allowedAtFlat = [&](int64_t flat) -> std::optional<bool> {
    if (isBool)
      return values.getValues<bool>()[flat] != chain.maskInverted;
    APFloat v = values.getValues<APFloat>()[flat];
    if (v.isZero())
      return true;
    if (isMaskFill(v))
      return false;
    return std::nullopt; // a real bias value
  };
  auto allowedAt = [&](int64_t i, int64_t j) {
    return allowedAtFlat(j * strides[jDim] +
                         (iDim >= 0 ? i * strides[iDim] : 0));
  };
  // The same band for every batch and head (dims other than i and j).
  if (type.getNumElements() != lq * lk || iDim < 0)
    for (int64_t flat = 0; flat < type.getNumElements(); ++flat) {
      SmallVector<int64_t> at = delinearize(flat, strides);
      std::optional<bool> a = allowedAtFlat(flat);
      if (!a || a != allowedAt(iDim >= 0 ? at[iDim] : 0, at[jDim]))
        return failure(); // varies over a batch dim: a real mask
    }
  // The band's offsets from rows whose allowed keys are not clipped by the
  // matrix; then every entry must agree.
  std::optional<int64_t> lo, hi;
  for (int64_t i = 0; i < lq; ++i) {
    int64_t first = -1, last = -1;
    for (int64_t j = 0; j < lk; ++j) {
      std::optional<bool> a = allowedAt(i, j);
      if (!a)
        return failure();
      if (*a) {
        if (first < 0)
          first = j;
        last = j;
      }
    }
    if (first < 0)
      continue;
    if (first > 0)
      lo = first - i;
    if (last < lk - 1)
      hi = last - i;
  }
  for (int64_t i = 0; i < lq; ++i)
    for (int64_t j = 0; j < lk; ++j) {
      bool inBand = (!lo || j >= i + *lo) && (!hi || j <= i + *hi);
      if (*allowedAt(i, j) != inBand)
        return failure();
    }
  if (!lo && !hi)
    return failure(); // everything allowed: keep it a (harmless) mask
  if (chain.causal != CausalMode::none || chain.windowRight ||
      chain.windowLeft)
    return failure();
  // j <= i + delta + right and j >= i + delta - left (semantics.md §4).
  int64_t delta = 0;
  if (hi && *hi == 0) {
    chain.causal = CausalMode::top_left;
  } else if (hi && *hi == lk - lq) {
    chain.causal = CausalMode::bottom_right;
    delta = *hi;
  } else if (hi) {
    if (*hi < 0)
      return failure();
    chain.windowRight = *hi;
  }
  if (lo) {
    if (delta - *lo < 0) {
      chain.causal = CausalMode::none;
      chain.windowRight.reset();
      return failure();
    }
    chain.windowLeft = delta - *lo;
    if (!hi)
      chain.windowRight.reset();
  }
  return success();
}

LogicalResult ChainMatcher::matchSoftmax(Operation *anchor, Chain &chain,
                                         Value &scores, Value &probs) {
  if (auto sm = dyn_cast<linalg::SoftmaxOp>(anchor)) {
    scores = sm.getInput();
    chain.rank = sm.getInputOperandType().getRank();
    if (static_cast<int64_t>(sm.getDimension()) != chain.rank - 1)
      return fail("softmax is over dimension " + Twine(sm.getDimension()) +
                      ", not the key dimension " + Twine(chain.rank - 1),
                  sm);
    probs = sm.getResult()[0];
    chain.ops.push_back(sm);
    return success();
  }
  // Decomposed: m = max_j s; e = exp(s - m); p = e / sum_j e (or e * 1/sum).
  FailureOr<Reduction> max = getReduction(anchor);
  if (failed(max) || !max->isMax)
    return fail("not a softmax", anchor);
  scores = max->input;
  chain.rank = cast<RankedTensorType>(scores.getType()).getRank();
  if (max->dim != chain.rank - 1)
    return fail("softmax is over dimension " + Twine(max->dim) +
                    ", not the key dimension " + Twine(chain.rank - 1),
                anchor);
  chain.ops.push_back(anchor);
  if (!max->op->getResult(0).hasOneUse())
    return matchLogSumExpSoftmax(*max, scores, chain, probs);
  // The scores feed the max and the subtraction only.
  if (std::distance(scores.use_begin(), scores.use_end()) != 2) {
    // The extra user: one that is not a subtraction, else the second one.
    Operation *extra = nullptr;
    bool seenSub = false;
    for (Operation *user : scores.getUsers()) {
      if (user == anchor)
        continue;
      FailureOr<Elementwise> ew = getElementwise(user->getResult(0));
      bool isSub = succeeded(ew) && ew->kind == EwKind::Sub;
      if (!isSub || seenSub)
        extra = extra ? extra : user;
      seenSub |= isSub;
    }
    return fail("the scores have users other than the softmax",
                extra ? extra : producerOf(scores));
  }
  Operation *subOp = nullptr;
  for (Operation *user : scores.getUsers())
    if (user != anchor)
      subOp = user;
  FailureOr<Elementwise> sub = getElementwise(subOp->getResult(0));
  if (failed(sub) || sub->kind != EwKind::Sub ||
      !isIdentityOperand(sub->args[0], scores) ||
      !isRowOperand(sub->args[1], *max, chain.rank))
    return fail("the row max is not subtracted from the scores", subOp);
  chain.ops.push_back(subOp);
  Value shifted = subOp->getResult(0);
  if (!shifted.hasOneUse())
    return fail("exp(s - max) has another user", blockingUser(shifted));
  Operation *expOp = *shifted.getUsers().begin();
  FailureOr<Elementwise> exp = getElementwise(expOp->getResult(0));
  if (failed(exp) || exp->kind != EwKind::Exp ||
      !isIdentityOperand(exp->args[0], shifted))
    return fail("s - max is not exponentiated", expOp);
  chain.ops.push_back(expOp);
  Value e = expOp->getResult(0);
  if (e.hasOneUse()) {
    // e.g. dropout applied to exp(s - max), then summed and normalized.
    Operation *user = *e.getUsers().begin();
    FailureOr<Elementwise> ew = getElementwise(user->getResult(0));
    auto generic = dyn_cast<linalg::GenericOp>(user);
    bool isProduct =
        (succeeded(ew) &&
         (ew->kind == EwKind::Mul || ew->kind == EwKind::Select)) ||
        (generic && !generic.getBody()->getOps<arith::MulFOp>().empty());
    if (isProduct)
      return fail("exp(s - max) is multiplied before the row sum (dropout "
                  "before the softmax normalization?): that changes the row "
                  "sum l, while attn.attention's dropout keeps l pre-dropout",
                  user);
  }
  if (std::distance(e.use_begin(), e.use_end()) != 2)
    return fail("exp(s - max) must feed the row sum and the normalization "
                "only",
                blockingUser(e));
  std::optional<Reduction> sum;
  Operation *normOp = nullptr;
  for (Operation *user : e.getUsers()) {
    FailureOr<Reduction> r = getReduction(user);
    if (succeeded(r) && !r->isMax && r->input == e && !sum)
      sum = *r;
    else
      normOp = user;
  }
  if (!sum || !normOp)
    return fail("exp(s - max) is not summed over a row",
                normOp ? normOp : userOtherThan(e, sum->op));
  if (sum->dim != chain.rank - 1)
    return fail("the softmax sum is over dimension " + Twine(sum->dim) +
                    ", not the key dimension " + Twine(chain.rank - 1),
                sum->op);
  chain.ops.push_back(sum->op);
  Value l = sum->op->getResult(0);
  if (!l.hasOneUse())
    return fail("the row sum has another user", userOtherThan(l, normOp));
  // p = e / l; or dropout applied to e before the division,
  // (e * keep * c) / l, which is attn.attention's dropout of e / l up to
  // rounding (its row sum l is the pre-dropout one as well).
  Value x = e;
  Operation *step = normOp;
  DropoutSteps dropout;
  while (true) {
    if (std::optional<Normalization> n =
            normalizationOf(step, x, *sum, chain.rank)) {
      if (n->sharedReciprocal)
        return fail("the reciprocal of the row sum has another user",
                    userOtherThan(n->ops.front()->getResult(0), step));
      chain.ops.append(n->ops.begin(), n->ops.end());
      break;
    }
    FailureOr<bool> isStep = collectDropoutStep(step, x, dropout);
    if (failed(isStep))
      return failure();
    if (!*isStep)
      return fail("the softmax is not normalized by the row sum", step);
    x = step->getResult(0);
    if (!x.hasOneUse())
      return fail("the dropped-out exp(s - max) has another user",
                  blockingUser(x));
    step = *x.getUsers().begin();
  }
  if (!dropout.ops.empty() && failed(recordDropout(dropout, chain)))
    return failure();
  probs = step->getResult(0);
  return success();
}

std::optional<ChainMatcher::Normalization>
ChainMatcher::normalizationOf(Operation *op, Value x, const Reduction &sum,
                              int64_t rank) {
  FailureOr<Elementwise> norm = getElementwise(op->getResult(0));
  if (failed(norm))
    return std::nullopt;
  if (norm->kind == EwKind::Div && isIdentityOperand(norm->args[0], x) &&
      isRowOperand(norm->args[1], sum, rank))
    return Normalization{{op}, false};
  if (norm->kind != EwKind::Mul)
    return std::nullopt;
  // x * (1 / l), with the reciprocal over the row sums.
  const EwOperand *other = nullptr;
  if (isIdentityOperand(norm->args[0], x))
    other = &norm->args[1];
  else if (isIdentityOperand(norm->args[1], x))
    other = &norm->args[0];
  Operation *recipOp =
      other && other->tensor ? other->tensor.getDefiningOp() : nullptr;
  FailureOr<Elementwise> recip = failure();
  if (recipOp)
    recip = getElementwise(other->tensor);
  // The reciprocal has the layout of the row sums, so the operand of the
  // normalization reads it like it would read the sums.
  Reduction asSum = sum;
  asSum.op = recipOp;
  // Over the row sums and read back per row, or over the row sums
  // broadcast to the scores' shape (by a multiply with ones) and read
  // elementwise.
  Value l = sum.op->getResult(0);
  bool perRow = succeeded(recip) && recip->kind == EwKind::Reciprocal &&
                isIdentityOperand(recip->args[0], l) &&
                isRowOperand(*other, asSum, rank);
  bool perElement = succeeded(recip) && recip->kind == EwKind::Reciprocal &&
                    isRowOperand(recip->args[0], sum, rank) && other->map &&
                    other->map.isIdentity();
  if (!perRow && !perElement)
    return std::nullopt;
  return Normalization{{recipOp, op}, !other->tensor.hasOneUse()};
}

FailureOr<Elementwise> ChainMatcher::onlyUserOfKind(Value v, EwKind kind) {
  if (!v.hasOneUse())
    return failure();
  FailureOr<Elementwise> ew =
      getElementwise((*v.getUsers().begin())->getResult(0));
  if (failed(ew) || ew->kind != kind ||
      llvm::none_of(ew->args,
                    [&](const EwOperand &o) { return isIdentityOperand(o, v); }))
    return failure();
  return ew;
}

/// The log-sum-exp spelling of the softmax:
///   m = max_j s; l = sum_j exp(s - m); p = exp(s - (m + log l)),
/// which is e / l up to rounding. `max` is the anchor, already recorded.
LogicalResult ChainMatcher::matchLogSumExpSoftmax(const Reduction &max,
                                                  Value scores, Chain &chain,
                                                  Value &probs) {
  Value m = max.op->getResult(0);
  if (std::distance(m.use_begin(), m.use_end()) != 2 ||
      std::distance(scores.use_begin(), scores.use_end()) != 3) {
    // The user that is neither a subtraction (s - m) nor the addition of
    // log l, else the row max itself.
    Operation *extra = max.op;
    for (Operation *user : m.getUsers()) {
      FailureOr<Elementwise> ew = getElementwise(user->getResult(0));
      if (failed(ew) || (ew->kind != EwKind::Sub && ew->kind != EwKind::Add)) {
        extra = user;
        break;
      }
    }
    return fail("the row max has another user", extra);
  }
  // Of the scores' other users, one subtracts m, the other the lse.
  Operation *shiftOp = nullptr, *outerOp = nullptr;
  for (Operation *user : scores.getUsers()) {
    if (user == max.op)
      continue;
    FailureOr<Elementwise> sub = getElementwise(user->getResult(0));
    if (failed(sub) || sub->kind != EwKind::Sub ||
        !isIdentityOperand(sub->args[0], scores))
      return fail("the row max has another user", user);
    (isRowOperand(sub->args[1], max, chain.rank) ? shiftOp : outerOp) = user;
  }
  if (!shiftOp || !outerOp)
    return fail("the row max is not subtracted from the scores",
                userOtherThan(scores, max.op));
  FailureOr<Elementwise> exp = onlyUserOfKind(shiftOp->getResult(0),
                                              EwKind::Exp);
  if (failed(exp))
    return fail("s - max is not exponentiated (log-sum-exp softmax)",
                blockingUser(shiftOp->getResult(0)));
  Value e = exp->op->getResult(0);
  FailureOr<Reduction> sum =
      e.hasOneUse() ? getReduction(*e.getUsers().begin())
                    : FailureOr<Reduction>(failure());
  if (failed(sum) || sum->isMax || sum->input != e ||
      sum->dim != chain.rank - 1)
    return fail("exp(s - max) is not summed over a row (log-sum-exp "
                "softmax)",
                blockingUser(e));
  FailureOr<Elementwise> log = onlyUserOfKind(sum->op->getResult(0),
                                              EwKind::Log);
  if (failed(log))
    return fail("the row sum is not the log-sum-exp's log",
                blockingUser(sum->op->getResult(0)));
  FailureOr<Elementwise> lse = onlyUserOfKind(log->op->getResult(0),
                                              EwKind::Add);
  if (failed(lse) || llvm::none_of(lse->args, [&](const EwOperand &o) {
        return isIdentityOperand(o, m);
      }))
    return fail("the log of the row sum is not added to the row max",
                blockingUser(log->op->getResult(0)));
  Value lseValue = lse->op->getResult(0);
  Reduction asMax = max;
  asMax.op = lse->op;
  FailureOr<Elementwise> outer = getElementwise(outerOp->getResult(0));
  if (!lseValue.hasOneUse() || *lseValue.getUsers().begin() != outerOp ||
      !isRowOperand(outer->args[1], asMax, chain.rank))
    return fail("the log-sum-exp is not subtracted from the scores",
                lseValue.hasOneUse() ? outerOp
                                     : userOtherThan(lseValue, outerOp));
  FailureOr<Elementwise> p = onlyUserOfKind(outerOp->getResult(0),
                                            EwKind::Exp);
  if (failed(p))
    return fail("s - lse is not exponentiated",
                blockingUser(outerOp->getResult(0)));
  chain.ops.append({shiftOp, exp->op, sum->op, log->op, lse->op, outerOp,
                    p->op});
  probs = p->op->getResult(0);
  return success();
}

/// The score dim of each dim of a mask-like operand `m` (`what` names it in
/// messages): each of its dims is a score dim, in order; dims of static size
/// 1 may also be broadcast with a constant 0 index.
LogicalResult ChainMatcher::matchScoreDims(const EwOperand &m, int64_t rank,
                                           StringRef what, Operation *reader,
                                           SmallVector<int64_t> &dims) {
  auto type = dyn_cast<RankedTensorType>(m.tensor.getType());
  if (!type)
    return fail("the " + what + " is not a ranked tensor", reader);
  int64_t last = -1;
  for (auto [k, e] : llvm::enumerate(m.map.getResults())) {
    int64_t dim;
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      dim = d.getPosition();
    } else if (auto c = dyn_cast<AffineConstantExpr>(e);
               c && c.getValue() == 0 && type.getDimSize(k) == 1 &&
               type.getRank() == rank) {
      dim = k;
    } else {
      return fail("the " + what + " is indexed with an unsupported map",
                  reader);
    }
    if (dim <= last)
      return fail("the " + what + " dimensions are permuted", reader);
    last = dim;
    dims.push_back(dim);
  }
  return success();
}

/// Whether score dims `dims` of a mask-like operand vary over the KV heads
/// but not the query heads of a group, or the reverse: with grouped-query
/// heads both become the op's one query-head dim, over which such a mask
/// cannot be broadcast. (A mask over both is collapsed like Q.)
bool variesOverGroupedHeads(ArrayRef<int64_t> dims, const Chain &chain) {
  return chain.groupDim && (llvm::is_contained(dims, *chain.groupDim) !=
                            llvm::is_contained(dims, *chain.groupDim - 1));
}

LogicalResult ChainMatcher::matchMask(const EwOperand &m, Operation *reader,
                                      Chain &chain) {
  if (failed(matchScoreDims(m, chain.rank, "mask", reader, chain.maskDims)))
    return failure();
  if (variesOverGroupedHeads(chain.maskDims, chain))
    return fail("the mask varies over the KV heads or the query heads of a "
                "group, not over both",
                reader);
  auto type = cast<RankedTensorType>(m.tensor.getType());
  // A mask built from linalg.index comparisons, or a constant band,
  // becomes causal / window.
  bool isBool = getElementTypeOrSelf(type).isInteger(1);
  if (succeeded(matchIndexMaskTensor(m, isBool, chain)) ||
      succeeded(matchConstantBandMask(m, isBool, chain))) {
    chain.maskDims.clear();
    return success();
  }
  chain.mask = m.tensor;
  return success();
}

/// c * tanh(s / c) (a softcap) seen from its outer product `mul`.
FailureOr<SoftcapMatch> matchSoftcap(const Elementwise &mul) {
  for (unsigned a = 0; a < 2; ++a) {
    const EwOperand &c = mul.args[a], &t = mul.args[1 - a];
    if (!c.scalar || !t.tensor || !t.map || !t.map.isIdentity())
      continue;
    std::optional<float> cap = toExactF32(*c.scalar);
    FailureOr<Elementwise> tanh = getElementwise(t.tensor);
    if (!cap || !(*cap > 0.0f) || failed(tanh) ||
        tanh->kind != EwKind::Tanh || !tanh->args[0].tensor ||
        !isIdentityOperand(tanh->args[0], tanh->args[0].tensor))
      continue;
    Value inner = tanh->args[0].tensor;
    FailureOr<Elementwise> div = getElementwise(inner);
    if (failed(div) || div->args.size() != 2)
      continue;
    // s / c, or s * (1 / c).
    std::optional<unsigned> sArg;
    if (div->kind == EwKind::Div && div->args[1].scalar &&
        toExactF32(*div->args[1].scalar) == cap)
      sArg = 0;
    for (unsigned b = 0; b < 2 && div->kind == EwKind::Mul; ++b)
      if (div->args[1 - b].scalar &&
          toExactF32(*div->args[1 - b].scalar) == 1.0f / *cap)
        sArg = b;
    if (!sArg || !div->args[*sArg].tensor ||
        !isIdentityOperand(div->args[*sArg], div->args[*sArg].tensor))
      continue;
    return SoftcapMatch{*cap, tanh->op, inner, div->args[*sArg].tensor,
                        allowsApproximation(tanh->op)};
  }
  return failure();
}

LogicalResult ChainMatcher::matchScores(Value scores, Chain &chain) {
  // Peeled in the reverse of attn.attention's order: exclusion, bias, scale.
  Value x = scores;
  if (auto st = dyn_cast<RankedTensorType>(scores.getType());
      st && st.getRank() >= 2) {
    chain.lq = st.getDimSize(st.getRank() - 2);
    chain.lk = st.getDimSize(st.getRank() - 1);
  }
  // The scores are an identity-mapped operand produced by a contraction or
  // by an earlier step (preferred over, e.g., a full-size bias).
  auto step = [&](FailureOr<Elementwise> &ew, Value &main,
                  const EwOperand *&other) -> bool {
    std::optional<unsigned> pick;
    for (unsigned a = 0; a < ew->args.size(); ++a) {
      const EwOperand &o = ew->args[a];
      if (!o.tensor || !o.map || !o.map.isIdentity() || !o.tensor.getDefiningOp())
        continue;
      std::string unused;
      bool likely = succeeded(getContraction(o.tensor.getDefiningOp(), unused));
      if (FailureOr<Elementwise> prev = getElementwise(o.tensor);
          succeeded(prev) &&
          (prev->kind == EwKind::Mul || prev->kind == EwKind::Div))
        likely = true;
      if (!pick || likely)
        pick = a;
      if (likely)
        break;
    }
    if (!pick || ew->args.size() != 2)
      return false;
    main = ew->args[*pick].tensor;
    other = &ew->args[1 - *pick];
    return true;
  };
  auto peel = [&](Value next) -> LogicalResult {
    chain.ops.push_back(x.getDefiningOp());
    if (!next.hasOneUse())
      return fail("an intermediate score tensor has another user",
                  userOtherThan(next, x.getDefiningOp()));
    x = next;
    return success();
  };

  FailureOr<Elementwise> ew = getElementwise(x);
  // A causal mask built from linalg.index comparisons in the body of a
  // generic: it commutes with the other steps (with a positive scale), so
  // it is accepted between any two of them.
  bool scaled = false;
  auto indexMask = [&]() -> LogicalResult {
    bool matched;
    Value next;
    if (failed(matchIndexMask(x, chain, next, matched)))
      return failure();
    if (!matched)
      return success();
    if (scaled && !(chain.scale > 0.0f))
      return fail("an index-built mask is followed by a non-positive scale",
                  x.getDefiningOp());
    if (failed(peel(next)))
      return failure();
    ew = getElementwise(x);
    return success();
  };
  if (failed(indexMask()))
    return failure();
  // (4) exclusion: select(keep, s, -inf).
  if (succeeded(ew) && ew->kind == EwKind::Select) {
    const EwOperand &cond = ew->args[0], &t = ew->args[1], &f = ew->args[2];
    // select(m, -inf, s) excludes where m is true: the op gets !m.
    bool inverted = t.scalar && f.tensor;
    const EwOperand &kept = inverted ? f : t, &fill = inverted ? t : f;
    if (!cond.tensor || !kept.tensor || !kept.map.isIdentity() ||
        !fill.scalar)
      return fail("unsupported select on the scores", x.getDefiningOp());
    if (!isMaskFill(*fill.scalar))
      return fail("the masked scores are set to a finite value, not -inf "
                  "(see option large-negative-is-masked)",
                  x.getDefiningOp());
    if (!getElementTypeOrSelf(cond.tensor.getType()).isInteger(1))
      return fail("the select condition is not i1", x.getDefiningOp());
    chain.maskInverted = inverted;
    if (failed(matchMask(cond, x.getDefiningOp(), chain)))
      return failure();
    if (failed(peel(kept.tensor)))
      return failure();
    ew = getElementwise(x);
    if (failed(indexMask()))
      return failure();
  }
  // (3) additive bias.
  Value main;
  const EwOperand *other = nullptr;
  if (succeeded(ew) && ew->kind == EwKind::Add && step(ew, main, other) &&
      other) {
    Operation *add = x.getDefiningOp();
    if (chain.mask)
      return fail("both a boolean mask and an additive bias", add);
    if (!other->tensor)
      return fail("a scalar is added to the scores", add);
    Type bt = getElementTypeOrSelf(other->tensor.getType());
    // (f64 only beside f64 Q, K and V: checked in match.)
    if (!bt.isF16() && !bt.isBF16() && !bt.isF32() && !bt.isF64())
      return fail("the additive bias is not f16, bf16, f32 or f64", add);
    if (failed(matchMask(*other, add, chain)) || failed(peel(main)))
      return failure();
    ew = getElementwise(x);
    if (failed(indexMask()))
      return failure();
  }
  // (2) softcap: c * tanh(s / c) (or tanh(s * fl(1/c)), which differs by
  // rounding only).
  if (succeeded(ew) && ew->kind == EwKind::Mul && ew->args.size() == 2) {
    FailureOr<SoftcapMatch> cap = matchSoftcap(*ew);
    if (succeeded(cap)) {
      chain.softcap = cap->cap;
      chain.softcapApprox = cap->approx;
      chain.ops.push_back(x.getDefiningOp());
      chain.ops.push_back(cap->tanhOp);
      for (Value v : {Value(cap->tanhOp->getResult(0)), cap->inner})
        if (!v.hasOneUse())
          return fail("an intermediate score tensor has another user",
                      blockingUser(v));
      x = cap->inner;
      if (failed(peel(cap->scores)))
        return failure();
      ew = getElementwise(x);
      if (failed(indexMask()))
        return failure();
    }
  }
  // (1) scale.
  if (succeeded(ew) && (ew->kind == EwKind::Mul || ew->kind == EwKind::Div) &&
      step(ew, main, other) && other) {
    bool isDiv = ew->kind == EwKind::Div;
    Operation *scaleOp = x.getDefiningOp();
    if (isDiv && !isIdentityOperand(ew->args[0], main))
      return fail("the scores are a divisor", scaleOp);
    if (!other->scalar)
      return fail("the scores are scaled by a non-constant", scaleOp);
    std::optional<float> c = toExactF32(*other->scalar);
    if (!c)
      return fail("the scale constant is not exact in f32", scaleOp);
    if (isDiv) {
      APFloat divisor(*c), inverse(0.0f);
      if (divisor.getExactInverse(&inverse)) {
        chain.scale = inverse.convertToFloat();
      } else if (options.inexactReciprocal && !divisor.isZero()) {
        chain.scale = 1.0f / *c;
      } else {
        SmallString<16> text;
        divisor.toString(text);
        return fail("division by " + text +
                        " is not multiplication by an exact f32 reciprocal "
                        "(see option inexact-reciprocal)",
                    scaleOp);
      }
    } else {
      chain.scale = *c;
    }
    if (failed(peel(main)))
      return failure();
    ew = getElementwise(x);
    scaled = true;
    if (failed(indexMask()))
      return failure();
  }
  if (failed(peelWidening(x, chain)))
    return failure();
  return matchQK(x, chain);
}

/// The scores widened for the softmax (f16/bf16 Q·Kᵀ, extf to f32, as
/// mixed-precision front ends write it), before the scale and masks or
/// after them: x becomes the narrow scores. attn.attention computes the
/// scores and the softmax in f32 whatever its element type, so the chain's
/// widening is what the op does anyway.
LogicalResult ChainMatcher::peelWidening(Value &x, Chain &chain) {
  FailureOr<Elementwise> ew = getElementwise(x);
  if (failed(ew) || ew->kind != EwKind::Extend)
    return success();
  if (!isIdentityOperand(ew->args[0], ew->args[0].tensor))
    return fail("the widened scores are not read elementwise", ew->op);
  Value narrow = ew->args[0].tensor;
  Type wide = getElementTypeOrSelf(x.getType());
  if (!wide.isF32() || chain.softmaxType)
    return fail("the scores are widened to another type than f32, or "
                "twice",
                ew->op);
  chain.softmaxType = wide;
  chain.ops.push_back(x.getDefiningOp());
  if (!narrow.hasOneUse())
    return fail("an intermediate score tensor has another user",
                userOtherThan(narrow, ew->op));
  x = narrow;
  return success();
}

LogicalResult ChainMatcher::matchQK(Value scores, Chain &chain) {
  Operation *def = scores.getDefiningOp();
  std::string why;
  FailureOr<Contraction> c =
      def ? getContraction(def, why) : FailureOr<Contraction>(failure());
  if (failed(c))
    return fail("the scores are not a Q·Kᵀ contraction" +
                    (def ? " (found '" + def->getName().getStringRef() +
                               "': " + why + ")"
                         : Twine("")),
                producerOf(scores));
  int64_t r = chain.rank;
  if (c->outMap.getNumResults() != r || r < 2 || r > kMaxScoreRank)
    return fail("the scores have rank " + Twine(c->outMap.getNumResults()) +
                    "; 2 to " + Twine(kMaxScoreRank) + " are supported",
                def);
  SmallVector<unsigned> loops;
  for (AffineExpr e : c->outMap.getResults())
    loops.push_back(cast<AffineDimExpr>(e).getPosition());
  unsigned i = loops[r - 2], j = loops[r - 1], d = c->redLoop;
  SmallVector<unsigned> batch(loops.begin(), loops.end() - 2);
  SmallVector<unsigned> qLoops(batch), kLoops(batch);
  qLoops.append({i, d});
  Value q = c->lhs, k = c->rhs;
  AffineMap qMap = c->lhsMap, kMap = c->rhsMap;
  if (positionOf(qMap, i) < 0)
    std::swap(q, k), std::swap(qMap, kMap);
  // Grouped-query heads (found on V by matchPV): K is broadcast over the
  // same score dim and read without it.
  for (int64_t b = 0; b < (int64_t)batch.size(); ++b)
    chain.kBatch.push_back(b);
  if (chain.groupDim) {
    std::optional<BroadcastOperand> g = groupBroadcastOf(def, k, kMap, batch);
    if (!g || groupIndexOf(*g, def, batch) != *chain.groupDim)
      return fail("V is broadcast over the query heads of a group but K is "
                  "not",
                  def);
    k = g->operand.tensor;
    kMap = g->operand.map;
    for (int64_t m : llvm::reverse(g->missing)) {
      kLoops.erase(kLoops.begin() + m);
      chain.kBatch.erase(chain.kBatch.begin() + m);
    }
  }
  kLoops.append({j, d});
  FailureOr<SmallVector<int64_t>> qPerm = permutationTo(qMap, qLoops);
  FailureOr<SmallVector<int64_t>> kPerm = permutationTo(kMap, kLoops);
  if (failed(qPerm) || failed(kPerm))
    return fail("the score contraction is not Q·Kᵀ over the head dimension",
                def);
  chain.qk = def;
  chain.q = q;
  chain.k = k;
  chain.qPerm = *qPerm;
  chain.kPerm = *kPerm;
  chain.ops.push_back(def);
  return success();
}

//===----------------------------------------------------------------------===//
// Dropout between the softmax and P·V
//===----------------------------------------------------------------------===//

/// The dropout probability for a keep-mask factor `scale`: an f32 p in
/// (0, 1) whose f32 factor 1.0f / (1.0f - p), the one attn.attention
/// applies, equals `scale` rounded to f32 (`exact`), or, when no f32 p gives
/// exactly that factor (e.g. 2.5: fl(1/(1 - fl(0.6))) = 2.50000024), the p
/// that comes closest (`exact` false).
struct DropoutP {
  float p = 0.0f;
  bool exact = false;
  float factor = 0.0f; // fl(1 / (1 - p))
};

std::optional<DropoutP> dropoutPFor(double scale) {
  if (!(scale > 1.0) || !std::isfinite(scale))
    return std::nullopt;
  float want = static_cast<float>(scale);
  double exact = 1.0 - 1.0 / scale;
  auto factor = [](float cand) { return 1.0f / (1.0f - cand); };
  auto valid = [](float cand) { return cand > 0.0f && cand < 1.0f; };
  // The shortest decimal p that gives the factor (1.3333334 is 1/(1 - 0.25),
  // not 1/(1 - 0.25000003)), else the f32 nearest to 1 - 1/scale or a
  // neighbour.
  SmallVector<float> candidates;
  for (int digits = 1; digits <= 9; ++digits) {
    double pow10 = std::pow(10.0, digits);
    candidates.push_back(static_cast<float>(std::round(exact * pow10) / pow10));
  }
  float nearest = static_cast<float>(exact);
  candidates.append(
      {nearest, std::nextafter(nearest, 0.0f), std::nextafter(nearest, 1.0f)});
  for (float cand : candidates)
    if (valid(cand) && factor(cand) == want)
      return DropoutP{cand, true, want};
  if (!valid(nearest))
    return std::nullopt;
  std::optional<DropoutP> best;
  for (float cand : candidates)
    if (valid(cand) && (!best || std::fabs(double(factor(cand)) - scale) <
                                     std::fabs(double(best->factor) - scale)))
      best = DropoutP{cand, false, factor(cand)};
  return best;
}

/// An i1 condition in the body of `g`: a block argument reading an i1
/// tensor (possibly through arith.extui, which is an unsigned widening).
LogicalResult ChainMatcher::collectBodyKeep(linalg::GenericOp g, Value cond,
                                            AffineMap map, DropoutFactors &f) {
  auto arg = dyn_cast<BlockArgument>(cond);
  if (!arg || arg.getOwner() != g.getBody() ||
      arg.getArgNumber() >= g.getNumDpsInputs())
    return fail("the keep condition is not an i1 input of the generic", g);
  OpOperand *in = g.getDpsInputOperand(arg.getArgNumber());
  if (!isa<RankedTensorType>(in->get().getType()) ||
      !getElementTypeOrSelf(in->get().getType()).isInteger(1))
    return fail("the keep condition is not read from an i1 tensor", g);
  EwOperand keep = normalizeOperand(in->get(), g.getMatchingIndexingMap(in));
  keep.map = keep.map.compose(map);
  f.keeps.push_back(keep);
  return success();
}

/// Factors of scalar `v` of the body of `g` (whose result is read through
/// `map` from the score loops): products and divisions by constants of
/// inputs, constants, uitofp of i1 (or of its extui) and select(keep, x, 0).
LogicalResult ChainMatcher::collectBodyFactors(linalg::GenericOp g, Value v,
                                               AffineMap map, Value probs,
                                               DropoutFactors &f) {
  Block *body = g.getBody();
  if (std::optional<APFloat> c = getSplatFloat(v)) {
    f.scale *= c->convertToDouble();
    return success();
  }
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != body || arg.getArgNumber() >= g.getNumDpsInputs())
      return fail("the dropout generic reads its output or a non-constant "
                  "scalar",
                  g);
    OpOperand *in = g.getDpsInputOperand(arg.getArgNumber());
    if (!isa<RankedTensorType>(in->get().getType())) {
      if (std::optional<APFloat> c = getSplatFloat(in->get())) {
        f.scale *= c->convertToDouble();
        return success();
      }
      return fail("the probabilities are multiplied by a non-constant "
                  "scalar",
                  g);
    }
    EwOperand o = normalizeOperand(in->get(), g.getMatchingIndexingMap(in));
    if (o.scalar) {
      f.scale *= o.scalar->convertToDouble();
      return success();
    }
    return collectTensorFactors(o.tensor, o.map.compose(map), probs, g, f);
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != body)
    return fail("the probabilities are multiplied by a non-constant scalar", g);
  if (auto mul = dyn_cast<arith::MulFOp>(def))
    return success(
        succeeded(collectBodyFactors(g, mul.getLhs(), map, probs, f)) &&
        succeeded(collectBodyFactors(g, mul.getRhs(), map, probs, f)));
  if (auto div = dyn_cast<arith::DivFOp>(def)) {
    std::optional<APFloat> c = getSplatFloat(div.getRhs());
    if (!c || c->isZero())
      return fail("the dropout generic divides by a non-constant", div);
    f.scale /= c->convertToDouble();
    return collectBodyFactors(g, div.getLhs(), map, probs, f);
  }
  if (auto conv = dyn_cast<arith::UIToFPOp>(def)) {
    Value in = conv.getIn();
    if (auto ext = in.getDefiningOp<arith::ExtUIOp>();
        ext && ext->getBlock() == body)
      in = ext.getIn();
    if (!in.getType().isInteger(1))
      return fail("the dropout generic converts a non-i1 integer to float",
                  conv);
    return collectBodyKeep(g, in, map, f);
  }
  if (auto sel = dyn_cast<arith::SelectOp>(def)) {
    if (isSplatZero(sel.getTrueValue()) && !isSplatZero(sel.getFalseValue()))
      return fail("the dropout select keeps where its condition is false; "
                  "attn.attention's dropout_mask keeps where it is true",
                  sel);
    if (!isSplatZero(sel.getFalseValue()))
      return fail("the dropout select does not put 0 at dropped positions",
                  sel);
    if (failed(collectBodyKeep(g, sel.getCondition(), map, f)))
      return failure();
    return collectBodyFactors(g, sel.getTrueValue(), map, probs, f);
  }
  return fail("the dropout generic computes '" + def->getName().getStringRef() +
                  "', not a product with a keep mask",
              def);
}

/// Factors of tensor `t`, read from the score loops through `map`.
LogicalResult ChainMatcher::collectTensorFactors(Value t, AffineMap map,
                                                 Value probs, Operation *reader,
                                                 DropoutFactors &f) {
  if (t == probs) {
    if (!map.isIdentity())
      return fail("the probabilities are read with a non-identity map", reader);
    ++f.probs;
    return success();
  }
  if (std::optional<APFloat> c = getSplatFloat(t)) {
    f.scale *= c->convertToDouble();
    return success();
  }
  if (getElementTypeOrSelf(t.getType()).isInteger(1)) {
    f.keeps.push_back(EwOperand{t, map, std::nullopt});
    return success();
  }
  Operation *def = t.getDefiningOp();
  if (auto cast = dyn_cast_or_null<tosa::CastOp>(def)) {
    auto inType = dyn_cast<RankedTensorType>(cast.getInput().getType());
    if (!inType || !inType.getElementType().isInteger(1))
      return fail("the dropout multiplier is a tosa.cast of a non-i1 tensor",
                  cast);
    f.keeps.push_back(EwOperand{cast.getInput(), map, std::nullopt});
    return success();
  }
  if (FailureOr<Elementwise> ew = getElementwise(t); succeeded(ew)) {
    auto operand = [&](const EwOperand &o) -> LogicalResult {
      if (o.scalar) {
        f.scale *= o.scalar->convertToDouble();
        return success();
      }
      if (!o.tensor)
        return fail("the probabilities are multiplied by a non-constant "
                    "scalar",
                    ew->op);
      return collectTensorFactors(o.tensor, o.map.compose(map), probs, ew->op,
                                  f);
    };
    switch (ew->kind) {
    case EwKind::Mul:
      return success(succeeded(operand(ew->args[0])) &&
                     succeeded(operand(ew->args[1])));
    case EwKind::Div:
      if (!ew->args[1].scalar || ew->args[1].scalar->isZero())
        return fail("the dropout step divides by a non-constant", ew->op);
      f.scale /= ew->args[1].scalar->convertToDouble();
      return operand(ew->args[0]);
    case EwKind::Select: {
      const EwOperand &cond = ew->args[0], &tv = ew->args[1], &fv = ew->args[2];
      if (tv.scalar && tv.scalar->isZero() &&
          !(fv.scalar && fv.scalar->isZero()))
        return fail("the dropout select keeps where its condition is false; "
                    "attn.attention's dropout_mask keeps where it is true",
                    ew->op);
      if (!fv.scalar || !fv.scalar->isZero())
        return fail("the dropout select does not put 0 at dropped positions",
                    ew->op);
      if (!cond.tensor ||
          !getElementTypeOrSelf(cond.tensor.getType()).isInteger(1))
        return fail("the dropout select condition is not an i1 tensor", ew->op);
      f.keeps.push_back(
          EwOperand{cond.tensor, cond.map.compose(map), std::nullopt});
      return operand(tv);
    }
    default:
      break;
    }
  }
  if (auto g = dyn_cast_or_null<linalg::GenericOp>(def)) {
    if (g.hasPureTensorSemantics() && g.getNumDpsInits() == 1 &&
        g.getNumLoops() == g.getNumParallelLoops() &&
        g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity() &&
        g.getBody()->getOps<linalg::IndexOp>().empty()) {
      auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
      return collectBodyFactors(g, yield.getValues()[0], map, probs, f);
    }
  }
  return fail("the probabilities are multiplied by a tensor that is not "
              "provably a 0/1 keep mask (" +
                  (def ? "'" + def->getName().getStringRef() + "'"
                       : Twine("a block argument")) +
                  "; convert an i1 mask with arith.uitofp, arith.select or "
                  "tosa.cast)",
              def ? def : reader);
}

/// Dropout between the softmax and P·V: P' = P * keep * c (in any order
/// and grouping, over one or more elementwise steps, each of which must
/// feed only the next), with an i1 keep mask and c = 1/(1 - p). On success
/// `probs` is the dropped-out P' that P·V consumes.
FailureOr<bool> ChainMatcher::collectDropoutStep(Operation *user, Value x,
                                                 DropoutSteps &steps) {
  // Only elementwise products are dropout steps; anything else is left to
  // the caller's message.
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  bool elementwise =
      (isa<linalg::GenericOp, linalg::MulOp, linalg::DivOp>(user) &&
       linalgOp.getNumLoops() == linalgOp.getNumParallelLoops()) ||
      isa<tosa::MulOp, tosa::SelectOp>(user);
  if (!elementwise || user->getNumResults() != 1 ||
      user->getResult(0).getType() != x.getType())
    return false;
  DropoutFactors f;
  AffineMap id = AffineMap::getMultiDimIdentityMap(
      cast<RankedTensorType>(x.getType()).getRank(), x.getContext());
  if (failed(collectTensorFactors(user->getResult(0), id, x, user, f)))
    return failWithPrefix("dropout: ");
  if (f.probs != 1)
    return fail("dropout: the probabilities are not multiplied elementwise "
                "by a keep mask and a constant",
                user);
  steps.total.keeps.append(f.keeps);
  steps.total.scale *= f.scale;
  steps.ops.push_back(user);
  return true;
}

LogicalResult ChainMatcher::recordDropout(const DropoutSteps &steps,
                                          Chain &chain) {
  const DropoutFactors &total = steps.total;
  Operation *first = steps.ops.front();
  if (total.keeps.empty())
    return fail("dropout: the probabilities are multiplied by a constant but "
                "not by a keep mask",
                first);
  if (total.keeps.size() > 1)
    return fail("dropout: the probabilities are multiplied by " +
                    Twine(total.keeps.size()) + " keep masks",
                first);
  std::optional<DropoutP> p = dropoutPFor(total.scale);
  auto text = [](double x) {
    SmallString<16> t;
    APFloat(static_cast<float>(x)).toString(t);
    return std::string(t);
  };
  if (!p)
    return fail("dropout: the kept probabilities are scaled by " +
                    text(total.scale) +
                    ", which is not 1/(1 - p) for a p in (0, 1)",
                first);
  if (!p->exact && !options.inexactReciprocal)
    return fail("dropout: the factor " + text(total.scale) +
                    " is not fl(1/(1 - p)) for any f32 p (p = " + text(p->p) +
                    " gives " + text(p->factor) +
                    "; see option inexact-reciprocal)",
                first);
  SmallVector<int64_t> dims;
  if (failed(matchScoreDims(total.keeps.front(), chain.rank, "keep mask", first,
                            dims)))
    return failWithPrefix("dropout: ");
  chain.dropoutP = p->p;
  chain.dropoutMask = total.keeps.front().tensor;
  chain.dropoutMaskDims = dims;
  if (variesOverGroupedHeads(dims, chain))
    return fail("the dropout keep mask varies over the KV heads or the "
                "query heads of a group, not over both",
                first);
  chain.ops.append(steps.ops.begin(), steps.ops.end());
  return success();
}

LogicalResult ChainMatcher::matchDropout(Value &probs, Chain &chain) {
  Value x = probs;
  DropoutSteps steps;
  while (true) {
    if (!x.hasOneUse())
      return fail(x == probs ? "the probabilities have another user"
                             : "the dropped-out probabilities have another "
                               "user",
                  blockingUser(x));
    Operation *user = *x.getUsers().begin();
    std::string why;
    if (succeeded(getContraction(user, why)))
      break;
    FailureOr<bool> isStep = collectDropoutStep(user, x, steps);
    if (failed(isStep))
      return failure();
    if (!*isStep)
      break;
    x = user->getResult(0);
  }
  if (steps.ops.empty())
    return success();
  if (chain.dropoutMask)
    return fail("dropout is applied both before and after the softmax "
                "normalization",
                steps.ops.front());
  if (failed(recordDropout(steps, chain)))
    return failure();
  probs = x;
  return success();
}

LogicalResult ChainMatcher::matchPV(Value probs, Chain &chain) {
  if (!probs.hasOneUse())
    return fail("the probabilities have another user", blockingUser(probs));
  Operation *user = *probs.getUsers().begin();
  std::string why;
  FailureOr<Contraction> c = getContraction(user, why);
  if (failed(c))
    return fail("the probabilities are not consumed by a P·V contraction (" +
                    why + ")",
                user);
  int64_t r = chain.rank;
  Value v = c->rhs;
  AffineMap pMap = c->lhsMap, vMap = c->rhsMap;
  if (c->rhs == probs)
    v = c->lhs, std::swap(pMap, vMap);
  // (V may lack the group dim: checked by groupBroadcastOf and
  // permutationTo below.)
  if (pMap.getNumResults() != r || c->outMap.getNumResults() != r)
    return fail("the P·V contraction does not have the rank of the scores",
                user);
  SmallVector<unsigned> pLoops;
  for (AffineExpr e : pMap.getResults())
    pLoops.push_back(cast<AffineDimExpr>(e).getPosition());
  if (pLoops[r - 1] != c->redLoop)
    return fail("the P·V contraction does not reduce over the key dimension",
                user);
  // The value dim: the loop of V that P does not have.
  std::optional<unsigned> e;
  for (AffineExpr x : vMap.getResults()) {
    unsigned l = cast<AffineDimExpr>(x).getPosition();
    if (!llvm::is_contained(pLoops, l))
      e = l;
  }
  if (!e)
    return fail("V has no value dimension", user);
  SmallVector<unsigned> batch(pLoops.begin(), pLoops.end() - 2);
  SmallVector<unsigned> vLoops(batch), outLoops(batch);
  // Grouped-query heads: V broadcast over one of the batch dims.
  for (int64_t b = 0; b < (int64_t)batch.size(); ++b)
    chain.vBatch.push_back(b);
  if (std::optional<BroadcastOperand> g =
          groupBroadcastOf(user, v, vMap, batch)) {
    v = g->operand.tensor;
    vMap = g->operand.map;
    chain.groupDim = groupIndexOf(*g, user, batch);
    for (int64_t m : llvm::reverse(g->missing)) {
      vLoops.erase(vLoops.begin() + m);
      chain.vBatch.erase(chain.vBatch.begin() + m);
    }
  }
  vLoops.append({pLoops[r - 1], *e});
  outLoops.append({pLoops[r - 2], *e});
  FailureOr<SmallVector<int64_t>> vPerm = permutationTo(vMap, vLoops);
  // outPerm: result dim k = fused-layout dim outPerm[k].
  SmallVector<int64_t> outPerm;
  for (AffineExpr x : c->outMap.getResults()) {
    auto it = llvm::find(outLoops, cast<AffineDimExpr>(x).getPosition());
    if (it == outLoops.end())
      return fail("the P·V result is not [batch..., query, value]", user);
    outPerm.push_back(it - outLoops.begin());
  }
  if (failed(vPerm))
    return fail("V is not [batch..., key, value] in the P·V contraction", user);
  chain.v = v;
  chain.vPerm = *vPerm;
  chain.outPerm = outPerm;
  chain.pv = user;
  return success();
}

/// The probabilities narrowed back to the type of V for P·V (truncf after
/// a widened softmax): probs becomes the narrowed tensor.
LogicalResult ChainMatcher::peelNarrowing(Value &probs, Chain &chain) {
  if (!probs.hasOneUse())
    return success();
  Value user = (*probs.getUsers().begin())->getResult(0);
  FailureOr<Elementwise> ew = getElementwise(user);
  if (failed(ew) || ew->kind != EwKind::Truncate ||
      !isIdentityOperand(ew->args[0], probs))
    return success();
  chain.ops.push_back(user.getDefiningOp());
  probs = user;
  return success();
}

LogicalResult ChainMatcher::checkMergedBatchDims(const Chain &chain) {
  if (chain.rank < 2 || chain.rank > kMaxScoreRank)
    return fail("the scores have rank " + Twine(chain.rank) + "; 2 to " +
                    Twine(kMaxScoreRank) + " are supported",
                chain.qk);
  const int64_t lead = chain.mergedBatchDims();
  if (lead == 0)
    return success();
  // [merged..., KV head, group, i, j]: the query heads of a KV head are the
  // op's head dim.
  if (chain.groupDim && *chain.groupDim != chain.rank - 3)
    return fail("the query heads of a group are score dim " +
                    Twine(*chain.groupDim) +
                    ", not the one before the query "
                    "dim; with more than two batch dims only that order is "
                    "supported",
                chain.pv);
  // Merged into one batch dim: K and V have all of those dims, first and in
  // order. (A mask with only some of them, or with some of size 1, is
  // broadcast over the rest by the rewrite.)
  auto mergeable = [&](ArrayRef<int64_t> dims) {
    if (llvm::count_if(dims, [&](int64_t d) { return d < lead; }) != lead)
      return false;
    for (int64_t d = 0; d < lead; ++d)
      if (dims[d] != d)
        return false;
    return true;
  };
  if (!mergeable(chain.kBatch))
    return fail("K lacks one of the " + Twine(lead) +
                    " leading batch dims the op's batch dim merges",
                chain.qk);
  if (!mergeable(chain.vBatch))
    return fail("V lacks one of the " + Twine(lead) +
                    " leading batch dims the op's batch dim merges",
                chain.pv);
  return success();
}

LogicalResult ChainMatcher::match(Operation *anchor, Chain &chain) {
  chain.anchor = anchor;
  Value scores, probs;
  if (failed(matchSoftmax(anchor, chain, scores, probs)) ||
      failed(matchDropout(probs, chain)) ||
      failed(peelNarrowing(probs, chain)) || failed(matchPV(probs, chain)) ||
      failed(matchScores(scores, chain)))
    return failure();
  // A softmax widened without narrowing back (or the reverse) computes P·V
  // in another type than Q·Kᵀ; the type check below refuses it.

  if (failed(checkMergedBatchDims(chain)))
    return failure();
  Type elt = getElementTypeOrSelf(chain.q.getType());
  if (elt.isF64()) {
    // The op has no f64 form: raised only on request, with Q, K, V and a
    // float mask rounded to f32 and the result widened back.
    if (!options.allowPrecisionChange)
      return fail("Q, K and V are f64; attn.attention computes in f16, bf16 "
                  "or f32, so the results would lose f64's precision (see "
                  "option allow-precision-change, which raises the chain "
                  "with its operands rounded to f32)",
                  chain.qk);
    chain.roundedFrom = elt;
  } else if (!elt.isF16() && !elt.isBF16() && !elt.isF32()) {
    return fail("Q is not f16, bf16, f32 or f64", chain.qk);
  }
  if (chain.mask && getElementTypeOrSelf(chain.mask.getType()).isF64() &&
      !chain.roundedFrom)
    return fail("the additive bias is f64 but Q is " + typeName(elt) +
                    "; attn.attention takes an f16, bf16 or f32 bias",
                chain.qk);
  if (getElementTypeOrSelf(chain.k.getType()) != elt)
    return fail("Q and K do not share one element type", chain.qk);
  if (getElementTypeOrSelf(chain.v.getType()) != elt ||
      getElementTypeOrSelf(chain.pv->getResult(0).getType()) != elt)
    return fail("Q, V and the result do not share one element type", chain.pv);
  for (Value t : {chain.q, chain.k, chain.v})
    if (!isa<RankedTensorType>(t.getType()))
      return fail("an operand is not a ranked tensor", chain.qk);
  // attn.attention runs the softmax in f32 whatever its element type; a
  // chain that runs it in f16/bf16 rounds in a way the op cannot reproduce.
  // (Contraction accumulators are not judged: front ends write f16
  // accumulators where the hardware accumulates in f32.)
  Type softmaxElt = chain.softmaxType ? chain.softmaxType
                                      : getElementTypeOrSelf(scores.getType());
  if (!softmaxElt.isF32() && !options.allowPrecisionChange)
    return fail("the softmax runs in " + typeName(softmaxElt) +
                    "; attn.attention computes it in f32, so the results would "
                    "differ by the chain's own rounding (see option "
                    "allow-precision-change)",
                chain.anchor);
  if (!softmaxElt.isF32())
    chain.changedSoftmaxType = softmaxElt;
  return success();
}

/// For explain: why a reduction whose body takes a maximum (softmax-like)
/// is not a row max the matcher can start from; empty if it is not
/// max-like at all.
std::string whyNotRowMax(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0)
    return "";
  Block *body = linalgOp.getBlock();
  if (body->getOps<arith::MaximumFOp>().empty() &&
      body->getOps<arith::MaxNumFOp>().empty())
    return "";
  if (linalgOp->getNumResults() != 1)
    return "the max reduction has " + std::to_string(op->getNumResults()) +
           " results (an argmax?); a softmax's row max has one";
  if (linalgOp.getNumReductionLoops() != 1)
    return "the max reduction reduces over more than one dimension";
  return "the max reduction is not a plain row max (one max op in the "
         "body, over the reduced element and the accumulator, from -inf or "
         "the lowest float)";
}

struct AttnFusePass final : impl::AttnFusePassBase<AttnFusePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> anchors;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::SoftmaxOp>(op)) {
        anchors.push_back(op);
        return;
      }
      FailureOr<Reduction> r = getReduction(op);
      if (succeeded(r) && r->isMax) {
        anchors.push_back(op);
        return;
      }
      // Softmax-like reductions that cannot start a chain are named too.
      if (std::string why = whyNotRowMax(op); explain && !why.empty())
        op->emitRemark("attn-fuse: not fused: ") << why;
    });
    FuseOptions fuseOptions{inexactReciprocal, largeNegativeIsMasked,
                            allowPrecisionChange};
    IRRewriter rewriter(&getContext());
    DenseSet<Operation *> erased;
    for (Operation *anchor : anchors) {
      if (erased.contains(anchor))
        continue;
      ChainMatcher matcher(fuseOptions);
      Chain chain;
      if (failed(matcher.match(anchor, chain))) {
        if (explain) {
          InFlightDiagnostic remark =
              anchor->emitRemark("attn-fuse: not fused: ") << matcher.reason;
          remark.attachNote(matcher.blocker->getLoc())
              << "the first op that blocks it: '" << matcher.blocker->getName()
              << "'"
              << (matcher.blocker == anchor ? " (the softmax itself)" : "");
        }
        continue;
      }
      rewriteChain(rewriter, chain, erased);
    }
  }
};

} // namespace
} // namespace mlir::attn
