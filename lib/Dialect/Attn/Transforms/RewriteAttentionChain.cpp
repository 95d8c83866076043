//===- RewriteAttentionChain.cpp - a matched chain to attn.attention ------===//
//
// attn-fuse's rewrite (AttentionChain.h): Q, K, V and the masks moved into
// the op's [B, H, L, D] layout (transposes folded into producers where they
// have one use, missing batch dims added as unit dims, extra leading ones
// or a group of query heads merged), the op built, its result moved back,
// and the matched ops erased once unused.
//
//===----------------------------------------------------------------------===//

#include "AttentionChain.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::attn::fuse {
namespace {

/// A generic that only moves its one input: a permutation input map, an
/// identity output map, a body that yields the input (a generalized
/// linalg.transpose).
bool isTransposition(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops())
    return false;
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  return maps[0].isPermutation() && maps[1].isIdentity() &&
         yield.getNumOperands() == 1 &&
         yield.getOperand(0) == g.getBody()->getArgument(0);
}

/// transpose(v, perm), folding a producing transpose (named, TOSA or
/// generalized) with one use.
Value transposeTo(OpBuilder &b, Location loc, Value v,
                  SmallVector<int64_t> perm) {
  if (auto t = v.getDefiningOp<linalg::TransposeOp>(); t && v.hasOneUse()) {
    ArrayRef<int64_t> inner = t.getPermutation();
    for (int64_t &p : perm)
      p = inner[p];
    v = t.getInput();
  } else if (auto t = v.getDefiningOp<tosa::TransposeOp>();
             t && v.hasOneUse()) {
    ArrayRef<int32_t> inner = t.getPerms();
    for (int64_t &p : perm)
      p = inner[p];
    v = t.getInput1();
  } else if (auto g = v.getDefiningOp<linalg::GenericOp>();
             g && v.hasOneUse() && isTransposition(g)) {
    // Output dim k reads input dim r where the input map's result r is d_k.
    AffineMap map = g.getIndexingMapsArray().front();
    SmallVector<int64_t> inner(map.getNumResults());
    for (auto [r, e] : llvm::enumerate(map.getResults()))
      inner[cast<AffineDimExpr>(e).getPosition()] = r;
    for (int64_t &p : perm)
      p = inner[p];
    v = g.getDpsInputs().front();
  }
  if (isIdentityPermutation(perm))
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, v);
  applyPermutationToVector(sizes, perm);
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  return linalg::TransposeOp::create(b, loc, v, init, perm)->getResult(0);
}

/// A mask whose dims are the score dims `dims` in another order (a
/// permuted relative position bias) transposed into score-dim order, with
/// `dims` sorted to match.
Value sortMaskDims(OpBuilder &b, Location loc, Value m,
                   SmallVector<int64_t> &dims) {
  if (llvm::is_sorted(dims))
    return m;
  SmallVector<int64_t> perm =
      llvm::to_vector(llvm::seq<int64_t>(0, dims.size()));
  llvm::sort(perm, [&](int64_t x, int64_t y) { return dims[x] < dims[y]; });
  llvm::sort(dims);
  return transposeTo(b, loc, m, perm);
}

/// Groups for inserting unit dims so that source dim k lands at
/// `positions[k]` of a rank-4 tensor.
SmallVector<ReassociationIndices> unitDimGroups(ArrayRef<int64_t> positions) {
  SmallVector<ReassociationIndices> groups(positions.size());
  for (int64_t p = 0; p < 4; ++p) {
    int64_t g = llvm::count_if(positions, [&](int64_t x) { return x <= p; });
    groups[std::max<int64_t>(g - 1, 0)].push_back(p);
  }
  return groups;
}

Value expandTo4D(OpBuilder &b, Location loc, Value v,
                 ArrayRef<int64_t> positions) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 4)
    return v;
  SmallVector<int64_t> shape(4, 1);
  for (auto [k, p] : llvm::enumerate(positions))
    shape[p] = type.getDimSize(k);
  auto result = RankedTensorType::get(shape, type.getElementType());
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, result, v,
                                         ArrayRef<ReassociationIndices>{});
  return tensor::ExpandShapeOp::create(b, loc, result, v,
                                       unitDimGroups(positions));
}

/// A one-input, all-parallel generic: `x` read through `inMap` (the
/// identity where null) into a new tensor of `sizes` and element type
/// `elt`, each element mapped by `body`.
Value mapElements(OpBuilder &b, Location loc, Value x, AffineMap inMap,
                  ArrayRef<OpFoldResult> sizes, Type elt,
                  function_ref<Value(OpBuilder &, Location, Value)> body) {
  const int64_t rank = sizes.size();
  Value init = tensor::EmptyOp::create(b, loc, sizes, elt);
  AffineMap outMap = b.getMultiDimIdentityMap(rank);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{x}, ValueRange{init},
             ArrayRef<AffineMap>{inMap ? inMap : outMap, outMap},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, body(nb, nl, args[0]));
             })
      ->getResult(0);
}

/// !m for an i1 tensor m (an exclusion mask turned into a keep mask); the
/// generic has the mask's size, which is at most the scores'.
Value negateMask(OpBuilder &b, Location loc, Value m) {
  return mapElements(b, loc, m, AffineMap(), tensor::getMixedSizes(b, loc, m),
                     b.getI1Type(), [](OpBuilder &nb, Location nl, Value v) {
                       Value one = arith::ConstantOp::create(
                           nb, nl, nb.getBoolAttr(true));
                       return arith::XOrIOp::create(nb, nl, v, one).getResult();
                     });
}

/// Mask-like `m` (score dim `dims[k]` for each of its dims k) broadcast to
/// every one of the first `leadSizes.size()` score dims, where it has some
/// of them but not all, or one of size 1 that the scores do not have: those
/// dims become one batch dim of the op, which cannot be broadcast in part.
/// Updates `dims`; returns `m` where nothing is to be done.
Value broadcastLeading(OpBuilder &b, Location loc, Value m,
                       SmallVector<int64_t> &dims,
                       ArrayRef<OpFoldResult> leadSizes) {
  const int64_t lead = leadSizes.size();
  auto type = cast<RankedTensorType>(m.getType());
  auto isUnitBroadcast = [&](int64_t k) {
    std::optional<int64_t> full = getConstantIntValue(leadSizes[dims[k]]);
    return type.getDimSize(k) == 1 && full != 1;
  };
  int64_t have = 0;
  bool unit = false;
  for (auto [k, d] : llvm::enumerate(dims)) {
    if (d >= lead)
      continue;
    ++have;
    unit |= isUnitBroadcast(k);
  }
  if (have == 0 || (have == lead && !unit))
    return m;
  // Output dims: the lead dims, then m's other dims in order.
  SmallVector<int64_t> outDims;
  SmallVector<OpFoldResult> outSizes(leadSizes);
  for (int64_t d = 0; d < lead; ++d)
    outDims.push_back(d);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, m);
  SmallVector<AffineExpr> inExprs;
  for (auto [k, d] : llvm::enumerate(dims)) {
    if (d < lead) {
      inExprs.push_back(isUnitBroadcast(k) ? b.getAffineConstantExpr(0)
                                           : b.getAffineDimExpr(d));
      continue;
    }
    inExprs.push_back(b.getAffineDimExpr(outDims.size()));
    outDims.push_back(d);
    outSizes.push_back(sizes[k]);
  }
  dims = outDims;
  return mapElements(b, loc, m,
                     AffineMap::get(outDims.size(), 0, inExprs, b.getContext()),
                     outSizes, type.getElementType(),
                     [](OpBuilder &, Location, Value v) { return v; });
}

/// `x` with its float elements converted to `elt` (arith.truncf or
/// arith.extf in a generic of x's size); `x` itself if they are `elt`.
Value convertElements(OpBuilder &b, Location loc, Value x, FloatType elt) {
  auto from = cast<FloatType>(getElementTypeOrSelf(x.getType()));
  if (from == elt)
    return x;
  return mapElements(b, loc, x, AffineMap(), tensor::getMixedSizes(b, loc, x),
                     elt, [&](OpBuilder &nb, Location nl, Value v) -> Value {
                       if (elt.getWidth() < from.getWidth())
                         return arith::TruncFOp::create(nb, nl, elt, v);
                       return arith::ExtFOp::create(nb, nl, elt, v);
                     });
}

/// The op's one mask from two rank-4 masks of the chain (i1 keep masks or
/// float biases, each dim the full size or 1), both applied to the scores:
/// two keep masks give `a and b`, a keep mask and a bias `select(keep, bias,
/// -inf)` (exact: the chain's `-inf + bias` is -inf for any bias below
/// +inf), two biases their sum in f32 (the chain adds them to the scores
/// one after the other: rounding only). Materialized at the broadcast of
/// their shapes, up to the [B, H, Lq, Lk] of the chain's own score tensors.
Value combineMasks(OpBuilder &b, Location loc, Value first, Value second) {
  auto typeA = cast<RankedTensorType>(first.getType());
  auto typeB = cast<RankedTensorType>(second.getType());
  SmallVector<OpFoldResult> sizesA = tensor::getMixedSizes(b, loc, first);
  SmallVector<OpFoldResult> sizesB = tensor::getMixedSizes(b, loc, second);
  SmallVector<OpFoldResult> sizes;
  SmallVector<AffineExpr> exprsA, exprsB;
  for (int64_t d = 0; d < 4; ++d) {
    const bool unitA = typeA.getDimSize(d) == 1,
               unitB = typeB.getDimSize(d) == 1;
    sizes.push_back(unitA && !unitB ? sizesB[d] : sizesA[d]);
    exprsA.push_back(unitA && !unitB ? b.getAffineConstantExpr(0)
                                     : b.getAffineDimExpr(d));
    exprsB.push_back(unitB && !unitA ? b.getAffineConstantExpr(0)
                                     : b.getAffineDimExpr(d));
  }
  Type eltA = typeA.getElementType(), eltB = typeB.getElementType();
  const bool keepA = eltA.isInteger(1), keepB = eltB.isInteger(1);
  Type elt = keepA && keepB ? eltA
             : keepA        ? eltB
             : keepB        ? eltA
                            : Type(b.getF32Type());
  auto body = [&](OpBuilder &nb, Location nl, Value x, Value y) -> Value {
    if (keepA && keepB)
      return arith::AndIOp::create(nb, nl, x, y);
    if (keepA || keepB) {
      auto ft = cast<FloatType>(elt);
      Value minusInf = arith::ConstantOp::create(
          nb, nl,
          nb.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics(),
                                              /*Negative=*/true)));
      return keepA ? arith::SelectOp::create(nb, nl, x, y, minusInf)
                   : arith::SelectOp::create(nb, nl, y, x, minusInf);
    }
    auto widen = [&](Value v) -> Value {
      return v.getType() == elt ? v : arith::ExtFOp::create(nb, nl, elt, v);
    };
    return arith::AddFOp::create(nb, nl, widen(x), widen(y));
  };
  Value init = tensor::EmptyOp::create(b, loc, sizes, elt);
  MLIRContext *ctx = b.getContext();
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{first, second},
             ValueRange{init},
             ArrayRef<AffineMap>{AffineMap::get(4, 0, exprsA, ctx),
                                 AffineMap::get(4, 0, exprsB, ctx),
                                 b.getMultiDimIdentityMap(4)},
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, body(nb, nl, args[0], args[1]));
             })
      ->getResult(0);
}

/// Erases `ops` and whatever only they used, once unused.
void eraseDead(RewriterBase &rewriter, ArrayRef<Operation *> ops,
               DenseSet<Operation *> &erased) {
  SetVector<Operation *> worklist(ops.begin(), ops.end());
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : llvm::to_vector(worklist)) {
      if (!worklist.contains(op) || !isOpTriviallyDead(op))
        continue;
      // Operands, and values that the regions use from above (constants).
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && !op->isAncestor(def))
            worklist.insert(def);
      });
      worklist.remove(op);
      erased.insert(op);
      rewriter.eraseOp(op);
      changed = true;
    }
  }
}

} // namespace

void rewriteChain(RewriterBase &rewriter, Chain &chain,
                  DenseSet<Operation *> &erased) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(chain.pv);
  Location loc = rewriter.getFusedLoc(
      {chain.ops.back()->getLoc(), chain.anchor->getLoc(), chain.pv->getLoc()});
  int64_t r = chain.rank;
  // With grouped-query heads, the KV-head and group dims (g - 1, g) of Q and
  // of the result are one query-head dim: the op works at rank er.
  std::optional<int64_t> g = chain.groupDim;
  int64_t er = r - (g ? 1 : 0);
  // Dim k of the rank-er layout is attn dim k + (4 - er): leading batch dims
  // of size 1. With more than two batch dims besides a group dim, the first
  // `lead` are merged into attn dim 0 and the rest follow it.
  const int64_t lead = chain.mergedBatchDims();
  SmallVector<int64_t> positions;
  for (int64_t k = 0; k < std::min<int64_t>(er, 4); ++k)
    positions.push_back(lead ? k : k + 4 - er);
  auto attnDimOf = [&](int64_t scoreDim) {
    int64_t ungrouped = g && scoreDim > *g ? scoreDim - 1 : scoreDim;
    if (lead)
      return scoreDim < lead ? 0 : ungrouped - lead + 1;
    return ungrouped + 4 - er;
  };
  // [d0, ..., d(lead-1), rest...] <-> [d0 * ... * d(lead-1), rest...].
  auto leadingGroups = [&](int64_t rank) {
    SmallVector<ReassociationIndices> groups(1);
    for (int64_t d = 0; d < rank; ++d) {
      if (d >= lead)
        groups.emplace_back();
      groups.back().push_back(d);
    }
    return groups;
  };
  auto mergeLeading = [&](Value x) {
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    return tensor::CollapseShapeOp::create(rewriter, loc, x,
                                           leadingGroups(rank))
        .getResult();
  };
  SmallVector<ReassociationIndices> headGroups;
  for (int64_t k = 0; k < r; ++k) {
    if (g && k == *g)
      headGroups.back().push_back(k);
    else
      headGroups.push_back({k});
  }
  Value qAllDims = transposeTo(rewriter, loc, chain.q, chain.qPerm);
  Value q = qAllDims;
  if (g)
    q = tensor::CollapseShapeOp::create(rewriter, loc, q, headGroups);
  if (lead)
    q = mergeLeading(q);
  q = expandTo4D(rewriter, loc, q, positions);
  // K and V: their batch dims at the attn dims of those score dims (with
  // merged leading dims, K and V have all of them: checkMergedBatchDims).
  auto kvTo4D = [&](Value x, ArrayRef<int64_t> perm,
                    ArrayRef<int64_t> batchDims) {
    x = transposeTo(rewriter, loc, x, llvm::to_vector(perm));
    SmallVector<int64_t> at;
    if (lead) {
      x = mergeLeading(x);
      at.push_back(0);
    }
    for (int64_t d : batchDims)
      if (d >= lead)
        at.push_back(attnDimOf(d));
    at.append({2, 3});
    return expandTo4D(rewriter, loc, x, at);
  };
  Value k = kvTo4D(chain.k, chain.kPerm, chain.kBatch);
  Value v = kvTo4D(chain.v, chain.vPerm, chain.vBatch);
  // An f64 chain raised under allow-precision-change runs in f32.
  auto rounded = [&](Value x) {
    return chain.roundedFrom
               ? convertElements(rewriter, loc, x, rewriter.getF32Type())
               : x;
  };
  q = rounded(q);
  k = rounded(k);
  v = rounded(v);
  // A mask-like operand with score dims `dims`: over both head dims of a
  // group (g - 1, g), those are merged into the query-head dim; the merged
  // leading batch dims, where it has them (first, all of them), into one.
  auto maskTo4D = [&](Value m, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> at;
    SmallVector<ReassociationIndices> merge;
    for (auto [k, d] : llvm::enumerate(dims)) {
      if ((g && d == *g) || (lead && d > 0 && d < lead)) {
        merge.back().push_back(k);
        continue;
      }
      merge.push_back({static_cast<int64_t>(k)});
      at.push_back(attnDimOf(d));
    }
    if (merge.size() != dims.size())
      m = tensor::CollapseShapeOp::create(rewriter, loc, m, merge);
    return expandTo4D(rewriter, loc, m, at);
  };
  // A mask over some of the merged dims, or over one of them with size 1,
  // is broadcast over them first: the merged dim cannot be broadcast in part.
  SmallVector<OpFoldResult> leadSizes =
      tensor::getMixedSizes(rewriter, loc, qAllDims);
  leadSizes.resize(lead);
  // A mask of the chain as the op reads it: rank 4, an i1 keep mask or a
  // float bias.
  auto opMask = [&](Value m, SmallVector<int64_t> dims, bool inverted) {
    m = sortMaskDims(rewriter, loc, m, dims);
    m = broadcastLeading(rewriter, loc, m, dims, leadSizes);
    m = maskTo4D(m, dims);
    if (inverted)
      return negateMask(rewriter, loc, m);
    if (isa<FloatType>(getElementTypeOrSelf(m.getType())))
      return rounded(m);
    return m;
  };
  Value mask;
  if (chain.mask)
    mask = opMask(chain.mask, chain.maskDims, chain.maskInverted);
  if (chain.secondMask)
    mask = combineMasks(rewriter, loc,
                        opMask(chain.secondMask->tensor, chain.secondMask->dims,
                               chain.secondMask->inverted),
                        mask);
  Value dropoutMask;
  if (chain.dropoutMask) {
    dropoutMask = broadcastLeading(rewriter, loc, chain.dropoutMask,
                                   chain.dropoutMaskDims, leadSizes);
    dropoutMask = maskTo4D(dropoutMask, chain.dropoutMaskDims);
  }
  auto qType = cast<RankedTensorType>(q.getType());
  auto vType = cast<RankedTensorType>(v.getType());
  auto outType =
      RankedTensorType::get({qType.getDimSize(0), qType.getDimSize(1),
                             qType.getDimSize(2), vType.getDimSize(3)},
                            qType.getElementType());
  auto attention = AttentionOp::create(
      rewriter, loc, TypeRange{outType}, q, k, v, mask, dropoutMask, Value(),
      Value(), rewriter.getF32FloatAttr(chain.scale), chain.causal,
      chain.windowRight || chain.windowLeft
          ? rewriter.getDenseI64ArrayAttr(
                {chain.windowLeft.value_or(-1), chain.windowRight.value_or(-1)})
          : DenseI64ArrayAttr(),
      chain.softcap ? rewriter.getF32FloatAttr(*chain.softcap) : FloatAttr(),
      chain.softcapApprox, APFloat(chain.dropoutP));
  if (chain.changedSoftmaxType)
    attention->setAttr("attn.chain_softmax_type",
                       TypeAttr::get(chain.changedSoftmaxType));
  Value out = attention.getOutput();
  // The chain's own element type from here on (f64 where it was rounded).
  Type resultElt = getElementTypeOrSelf(chain.pv->getResult(0).getType());
  if (chain.roundedFrom)
    out = convertElements(rewriter, loc, out, cast<FloatType>(resultElt));
  if (lead) {
    // Attn dim 0 back to the leading batch dims (Q's sizes).
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, qAllDims);
    SmallVector<OpFoldResult> outSizes =
        tensor::getMixedSizes(rewriter, loc, out);
    sizes.resize(lead);
    sizes.append(outSizes.begin() + 1, outSizes.end());
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic;
    dispatchIndexOpFoldResults(sizes, dynamic, shape);
    out = tensor::ExpandShapeOp::create(rewriter, loc,
                                        RankedTensorType::get(shape, resultElt),
                                        out, leadingGroups(er), sizes);
  }
  if (er < 4) {
    SmallVector<ReassociationIndices> groups = unitDimGroups(positions);
    out = tensor::CollapseShapeOp::create(rewriter, loc, out, groups);
  }
  if (g) {
    // [..., KV head * G + g, ...] back to [..., KV head, g, ...].
    // The rank-r [batch..., query, value] shape: Q's dims in the fused
    // order (dim k of the transposed Q is dim qPerm[k] of Q).
    auto qr = cast<RankedTensorType>(chain.q.getType());
    SmallVector<int64_t> shape;
    for (int64_t p : chain.qPerm)
      shape.push_back(qr.getDimSize(p));
    shape.back() = vType.getDimSize(3);
    out = tensor::ExpandShapeOp::create(rewriter, loc,
                                        RankedTensorType::get(shape, resultElt),
                                        out, headGroups);
  }
  out = transposeTo(rewriter, loc, out, chain.outPerm);
  // chain.pv is erased by replaceOp; the rest die once it is gone.
  assert(!llvm::is_contained(chain.ops, chain.pv) &&
         "the replaced op is not one of the chain's ops");
  SmallVector<Operation *> dead(chain.ops);
  for (Value operand : chain.pv->getOperands())
    if (Operation *def = operand.getDefiningOp())
      dead.push_back(def);
  rewriter.replaceOp(chain.pv, out);
  eraseDead(rewriter, dead, erased);
}

} // namespace mlir::attn::fuse
