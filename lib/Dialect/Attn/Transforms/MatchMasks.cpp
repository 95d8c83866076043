//===- MatchMasks.cpp - attn-fuse: masks of the scores --------------------===//
//
// The masks of a chain's scores: a boolean or additive mask operand, and
// the ones that become the op's causal / window attributes instead (masks
// built from linalg.index comparisons, in a generic's body or as a tensor,
// and constant band masks such as a materialized tril buffer).
//
//===----------------------------------------------------------------------===//

#include "ChainMatcher.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::attn::fuse {

/// The value a select puts at excluded positions: -inf, or (option
/// large-negative-is-masked) a finite value <= -1e4.
bool ChainMatcher::isMaskFill(const APFloat &f) const {
  if (f.isInfinity() && f.isNegative())
    return true;
  if (!options.largeNegativeIsMasked || f.isNaN())
    return false;
  APFloat fill = f;
  bool losesInfo;
  fill.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
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
static bool addIndexForm(Value v, Block *body, int64_t sign, IndexForm &form) {
  Type t = v.getType();
  if (!t.isIndex() &&
      !(t.isSignlessInteger() && t.getIntOrFloatBitWidth() >= 32))
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
  // (A sign extension keeps the value; TOSA widens an i32 j - i to i64.)
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(def))
    return addIndexForm(def->getOperand(0), body, sign, form);
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return addIndexForm(add.getLhs(), body, sign, form) &&
           addIndexForm(add.getRhs(), body, sign, form);
  if (auto sub = dyn_cast<arith::SubIOp>(def))
    return addIndexForm(sub.getLhs(), body, sign, form) &&
           addIndexForm(sub.getRhs(), body, -sign, form);
  return false;
}

/// `form` as s * (j - i) + c (s = +-1) over the query and key dims, the
/// other loops absent; none for another combination.
static std::optional<std::pair<int64_t, int64_t>>
asKeyMinusQuery(const IndexForm &form, ArrayRef<int64_t> loopToScoreDim,
                int64_t rank) {
  int64_t coefQ = 0, coefK = 0;
  for (auto [l, d] : llvm::enumerate(loopToScoreDim)) {
    if (form.coef[l] == 0)
      continue;
    if (d == rank - 2)
      coefQ += form.coef[l];
    else if (d == rank - 1)
      coefK += form.coef[l];
    else
      return std::nullopt;
  }
  if (coefK == 1 && coefQ == -1)
    return std::make_pair(int64_t{1}, form.c);
  if (coefK == -1 && coefQ == 1)
    return std::make_pair(int64_t{-1}, form.c);
  return std::nullopt;
}

/// A symmetric band from an absolute value, `|j - i + c| <= w` (kept) or
/// `|j - i + c| > w` (excluded), as local attention writes it: the allowed
/// lo <= j - i <= hi, or none if `cond` is not such a comparison.
static std::optional<std::pair<int64_t, int64_t>>
matchAbsBand(Value cond, Block *body, ArrayRef<int64_t> loopToScoreDim,
             bool condKeeps, int64_t rank) {
  using P = arith::CmpIPredicate;
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp->getBlock() != body)
    return std::nullopt;
  P pred = cmp.getPredicate();
  Value absValue = cmp.getLhs(), bound = cmp.getRhs();
  if (!absValue.getDefiningOp<math::AbsIOp>()) {
    std::swap(absValue, bound);
    // w `pred` |x|  <=>  |x| `swapped pred` w.
    switch (pred) {
    case P::sle:
      pred = P::sge;
      break;
    case P::slt:
      pred = P::sgt;
      break;
    case P::sge:
      pred = P::sle;
      break;
    case P::sgt:
      pred = P::slt;
      break;
    default:
      return std::nullopt;
    }
  }
  auto abs = absValue.getDefiningOp<math::AbsIOp>();
  APInt w;
  if (!abs || abs->getBlock() != body ||
      !matchPattern(bound, m_ConstantInt(&w)))
    return std::nullopt;
  // The comparison holds for |x| <= a (small) or for |x| > a.
  int64_t a;
  bool small;
  switch (pred) {
  case P::sle:
    a = w.getSExtValue();
    small = true;
    break;
  case P::slt:
    a = w.getSExtValue() - 1;
    small = true;
    break;
  case P::sgt:
    a = w.getSExtValue();
    small = false;
    break;
  case P::sge:
    a = w.getSExtValue() - 1;
    small = false;
    break;
  default:
    return std::nullopt;
  }
  // Allowed must be the small side (keeping |x| > a is no band), nonempty.
  if (small != condKeeps || a < 0)
    return std::nullopt;
  IndexForm form;
  form.coef.assign(loopToScoreDim.size(), 0);
  if (!addIndexForm(abs.getOperand(), body, 1, form))
    return std::nullopt;
  std::optional<std::pair<int64_t, int64_t>> x =
      asKeyMinusQuery(form, loopToScoreDim, rank);
  if (!x)
    return std::nullopt;
  // |s * D + c| <= a  <=>  -a - c <= s * D <= a - c.
  auto [sign, c] = *x;
  if (sign == 1)
    return std::make_pair(-a - c, a - c);
  return std::make_pair(c - a, c + a);
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
  // `!c` (xori with true: PyTorch's `~keep`) keeps where c excludes.
  if (auto x = cond.getDefiningOp<arith::XOrIOp>();
      x && x->getBlock() == body) {
    for (int side = 0; side < 2; ++side)
      if (matchPattern(x->getOperand(1 - side), m_One()))
        return matchCausalCond(x->getOperand(side), body, loopToScoreDim,
                               !condKeeps, chain);
  }
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
  if (std::optional<std::pair<int64_t, int64_t>> band =
          matchAbsBand(cond, body, loopToScoreDim, condKeeps, chain.rank))
    return recordIndexBand(band->first, band->second, cond.getDefiningOp(),
                           chain);
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
  case P::sgt:
  case P::ugt:
    greater = true;
    strict = true;
    break;
  case P::sge:
  case P::uge:
    greater = true;
    strict = false;
    break;
  case P::slt:
  case P::ult:
    greater = false;
    strict = true;
    break;
  default:
    greater = false;
    strict = false;
    break;
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
static bool isIndexMaskBodyOp(Operation &o) {
  return o.hasTrait<OpTrait::ConstantLike>() ||
         isa<linalg::IndexOp, arith::AddIOp, arith::SubIOp, arith::CmpIOp,
             arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::IndexCastOp,
             arith::IndexCastUIOp, arith::ExtSIOp, math::AbsIOp,
             arith::SelectOp, arith::AddFOp, linalg::YieldOp>(o);
}

/// A generic with all-parallel loops and an identity result map whose body
/// reads linalg.index.
static linalg::GenericOp getIndexGeneric(Value v) {
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
    std::optional<bool> keeps = selectKeeps(*t, *f);
    if (!keeps)
      return failure();
    condKeeps = *keeps;
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
  if (type.getNumElements() == 0)
    return failure(); // a zero-size batch: no band to read
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
  if (chain.causal != CausalMode::none || chain.windowRight || chain.windowLeft)
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

/// The score dim of each dim of a mask-like operand `m` (`what` names it in
/// messages): each of its dims is a score dim, in order (in any order with
/// `allowPermuted`, each at most once); dims of static size 1 may also be
/// broadcast with a constant 0 index.
LogicalResult ChainMatcher::matchScoreDims(const EwOperand &m, int64_t rank,
                                           StringRef what, Operation *reader,
                                           SmallVector<int64_t> &dims,
                                           bool allowPermuted) {
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
    if (llvm::is_contained(dims, dim))
      return fail("the " + what + " reads a score dimension twice", reader);
    if (dim <= last && !allowPermuted)
      return fail("the " + what + " dimensions are permuted", reader);
    last = dim;
    dims.push_back(dim);
  }
  return success();
}

std::optional<bool> ChainMatcher::selectKeeps(const APFloat &t,
                                              const APFloat &f) const {
  if (t.isZero())
    return isMaskFill(f) ? std::optional<bool>(true) : std::nullopt;
  if (f.isZero() && isMaskFill(t))
    return false;
  return std::nullopt;
}

LogicalResult ChainMatcher::matchMask(const EwOperand &m, Operation *reader,
                                      Chain &chain) {
  // A mask read in another order than the scores' dims (T5's and Swin's
  // relative position bias: a table gathered as [Lq, Lk, H] and permuted to
  // [H, Lq, Lk], a permutation that elementwise fusion moves into the map
  // that reads it) is transposed by the rewrite.
  if (failed(matchScoreDims(m, chain.rank, "mask", reader, chain.maskDims,
                            /*allowPermuted=*/true)))
    return failure();
  if (variesOverGroupedHeads(chain.maskDims, chain))
    return fail("the mask varies over the KV heads or the query heads of a "
                "group, not over both",
                reader);
  auto type = cast<RankedTensorType>(m.tensor.getType());
  bool isBool = getElementTypeOrSelf(type).isInteger(1);
  EwOperand mask = m;
  if (!isBool) {
    // An additive bias that is select(keep, 0, fill) (or select(excluded,
    // fill, 0)) of a boolean tensor is that boolean mask: the op reads one
    // byte per score instead of a float, and a band of it becomes causal /
    // window below (attn-normalize-chains leaves the index-built additive
    // masks front ends write in this form, their comparison evaluated).
    bool inverted = false;
    if (std::optional<EwOperand> keep = booleanOfBias(m, inverted)) {
      mask = *keep;
      isBool = true;
      chain.maskInverted = inverted;
    }
  }
  // A mask built from linalg.index comparisons, or a constant band,
  // becomes causal / window.
  if (succeeded(matchIndexMaskTensor(mask, isBool, chain)) ||
      succeeded(matchConstantBandMask(mask, isBool, chain))) {
    chain.maskDims.clear();
    chain.maskInverted = false;
    return success();
  }
  chain.mask = mask.tensor;
  return success();
}

LogicalResult ChainMatcher::matchAnotherMask(const EwOperand &m, bool inverted,
                                             Operation *reader, Chain &chain) {
  ScoreMask first{chain.mask, chain.maskDims, chain.maskInverted};
  chain.mask = Value();
  chain.maskDims.clear();
  chain.maskInverted = inverted;
  if (failed(matchMask(m, reader, chain)))
    return failure();
  if (!first.tensor)
    return success();
  if (!chain.mask) {
    // `m` was a band: the first mask stays the op's.
    chain.mask = first.tensor;
    chain.maskDims = first.dims;
    chain.maskInverted = first.inverted;
    return success();
  }
  if (chain.secondMask)
    return fail("three mask tensors (the op has one mask operand, into which "
                "two are combined)",
                reader);
  chain.secondMask = std::move(first);
  return success();
}

std::optional<EwOperand> ChainMatcher::booleanOfBias(const EwOperand &bias,
                                                     bool &inverted) {
  FailureOr<Elementwise> sel = getElementwise(bias.tensor);
  if (failed(sel) || sel->kind != EwKind::Select)
    return std::nullopt;
  const EwOperand &cond = sel->args[0], &t = sel->args[1], &f = sel->args[2];
  if (!cond.tensor || !cond.map || !t.scalar || !f.scalar ||
      !getElementTypeOrSelf(cond.tensor.getType()).isInteger(1) ||
      cond.map != AffineMap::getMultiDimIdentityMap(cond.map.getNumDims(),
                                                    cond.map.getContext()))
    return std::nullopt;
  std::optional<bool> keeps = selectKeeps(*t.scalar, *f.scalar);
  if (!keeps)
    return std::nullopt;
  inverted = !*keeps;
  return EwOperand{cond.tensor, bias.map, std::nullopt};
}

/// Whether score dims `dims` of a mask-like operand vary over the KV heads
/// but not the query heads of a group, or the reverse: with grouped-query
/// heads both become the op's one query-head dim, over which such a mask
/// cannot be broadcast. (A mask over both is collapsed like Q.)
bool variesOverGroupedHeads(ArrayRef<int64_t> dims, const Chain &chain) {
  return chain.groupDim && (llvm::is_contained(dims, *chain.groupDim) !=
                            llvm::is_contained(dims, *chain.groupDim - 1));
}

} // namespace mlir::attn::fuse
