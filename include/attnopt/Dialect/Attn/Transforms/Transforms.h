//===- Transforms.h - attn transformations as functions ---------*- C++ -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_TRANSFORMS_TRANSFORMS_H
#define ATTNOPT_DIALECT_ATTN_TRANSFORMS_TRANSFORMS_H

#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::attn {

struct OnlineSoftmaxTiling {
  int64_t blockQ = 64;  ///< Br: query rows per parallel tile.
  int64_t blockKV = 64; ///< Bc: key/value rows per sequential step.
};

/// Rewrites `op` into the FlashAttention form: an scf.forall over (batch,
/// head, query block) whose body runs an scf.for over the key/value blocks
/// that the causal/window rules leave visible, carrying the running row max,
/// row sum and f32 accumulator. No value of the result has both a query-length
/// and a key-length dimension. Returns the replacement values.
FailureOr<SmallVector<Value>>
tileAttentionWithOnlineSoftmax(RewriterBase &rewriter, AttentionOp op,
                               const OnlineSoftmaxTiling &tiling);

/// Rewrites the gradient `op` into FlashAttention's backward with
/// recomputation (lib/Dialect/Attn/Transforms/TileAttentionGradRecompute.cpp):
/// D = rowsum(dO * O), an scf.forall over key blocks accumulating dK and dV
/// over the visible query blocks, and an scf.forall over query blocks
/// accumulating dQ over the visible key blocks. Scores and probabilities
/// exist only as Br x Bc tiles. Deterministic: no result depends on the
/// order of parallel iterations.
FailureOr<SmallVector<Value>>
tileAttentionGradWithRecomputation(RewriterBase &rewriter, AttentionGradOp op,
                                   const OnlineSoftmaxTiling &tiling);

/// Rewrites every attn.varlen_attention(_grad) under `root` into its
/// definition: transposes to the batch-1 dense form, a block-diagonal i1
/// mask built from the offsets, and one attn.attention(_grad) without
/// causal or window (docs/semantics.md, section 14); and every
/// attn.paged_attention by the dense op over its gathered cache with a
/// length mask (section 15); and every attn.merge_partials by its linalg
/// definition (section 16).
LogicalResult expandPackedBatches(RewriterBase &rewriter, Operation *root);

/// Replaces every linalg.softmax under `root` by its upstream decomposition
/// (max, exp(s - max), sum, div generics); attn-normalize-chains starts with
/// it, and attn-raise-check runs chains with it (the CPU lowering has no
/// linalg.softmax). Fails, with an error at the op, if one cannot be.
LogicalResult decomposeSoftmaxOps(Operation *root);

/// Patterns replacing an integer constant input of an i1-mask generic whose
/// values are an affine function of their indices (an arange, broadcast) by
/// that function of linalg.index, so that masks built by comparing aranges
/// become index comparisons at any size (attn-normalize-chains uses them).
void populateArangeInputsToIndicesPatterns(RewritePatternSet &patterns);

/// Patterns undoing elementwise fusion into a softmax's reductions and P·V
/// (PeelFusedProducers.cpp): a value a reduction computes before combining
/// it with the accumulator, where an input spans the whole iteration space,
/// becomes a parallel generic and a plain reduction; a contraction factor
/// computed in the body from several inputs (`(e / l) * v`, P's narrowing)
/// becomes a generic over the loops of the input that spans it.
void populatePeelFusedProducersPatterns(RewritePatternSet &patterns);

/// Upstream's unit-dim folding restricted to the parallel unit loops of a
/// reduction that no input reads (a keepdim reduction after fusion expanded
/// its input to [.., L, 1, Lk]); a size-1 dim the inputs have stays.
void populateDropReductionUnitLoopsPatterns(RewritePatternSet &patterns);

/// The values of a `dense_resource` constant as a dense attribute (none for
/// another attribute or a blob not loaded; i1 blobs hold a byte each).
std::optional<DenseElementsAttr> denseElementsOfResource(Attribute attr);

/// The largest `dense_resource` constant attn-normalize-chains reads into
/// a dense one: the size it evaluates masks up to.
constexpr int64_t kMaxMaterializedElements = 65536;

/// Patterns making small `dense_resource` constants (torch-mlir's module
/// buffers, e.g. a causal `tril`) dense constants with the same values
/// (MaterializeResourceConstants.cpp).
void populateMaterializeResourceConstantsPatterns(RewritePatternSet &patterns);

/// Patterns folding `arith.truncf` / `arith.extf` of a float constant
/// (scalar or splat) into the constant it computes, rounded to nearest even
/// as the cast does (FoldFloatCastConstants.cpp): torch-mlir's scale is
/// `truncf` of an f64 constant, which upstream folds only where exact.
void populateFoldFloatCastConstantsPatterns(RewritePatternSet &patterns);

/// Patterns putting back the row reductions of a softmax over a size-1 dim
/// that a front end folded into their input (RestoreUnitRowReductions.cpp,
/// TOSA's reduce folders): `x - x` feeding an exponential becomes
/// `x - max(x)`, and `1 / e` or `e / e` of an exponential `e` divide by
/// `sum(e)`; keepdim generics, exact.
void populateRestoreUnitRowReductionsPatterns(RewritePatternSet &patterns);

/// The ops of each decode chain under `root` whose query dim was dropped:
/// a matrix-vector Q·Kᵀ (one operand has no loop of its own), the softmax's
/// ops computing an exponential from it, and the matrix-vector P·V that
/// reads the result as its vector (RestoreUnitQueryDims.cpp).
llvm::DenseSet<Operation *> collectUnitQueryChains(Operation *root);

/// Patterns giving the chains `chainOps` (collectUnitQueryChains) their
/// size-1 query dim back: each matrix-vector product becomes a contraction
/// with a unit query loop, and the unit dim is carried through the softmax
/// by fusing the reshapes into the generics. Exact. `chainOps` must outlive
/// the patterns.
void populateRestoreUnitQueryDimsPatterns(
    RewritePatternSet &patterns, const llvm::DenseSet<Operation *> &chainOps);

/// Patterns making a `tensor.reshape` whose shape is a `from_elements` of
/// sizes computed from its operand's dims (torch-mlir's `view` with dynamic
/// sizes) the `tensor.collapse_shape` or `tensor.expand_shape` it is, where
/// the sizes provably are products of consecutive dims
/// (FoldComputedReshapes.cpp).
void populateFoldComputedReshapesPatterns(RewritePatternSet &patterns);

/// Patterns replacing a gather that broadcasts dynamic size-1 dims
/// (torch-mlir's `tensor.extract` at `dim == 1 ? 0 : i`) by its source,
/// with a `cf.assert` that the sizes match where that is not provable
/// (FoldDynamicBroadcastGathers.cpp).
void populateFoldDynamicBroadcastGathersPatterns(RewritePatternSet &patterns);

/// Patterns moving an `arith.extf` generic of a broadcast copy above the
/// copy, onto the tensor it repeats (HoistCastsAboveBroadcasts.cpp: bf16
/// SDPA's upcast of K and V repeated by repeat_kv).
void populateHoistCastsAboveBroadcastsPatterns(RewritePatternSet &patterns);

/// Patterns making a slice of a band constant at static offsets (GPT-2's
/// `tril` buffer sliced to the sequence, `bias[:, :, :T, :T]`) an
/// input-less generic of linalg.index comparisons, and folding a
/// comparison of such a select of constants into its condition
/// (FoldBandConstantSlices.cpp).
void populateFoldBandConstantSlicesPatterns(RewritePatternSet &patterns);

} // namespace mlir::attn

#endif // ATTNOPT_DIALECT_ATTN_TRANSFORMS_TRANSFORMS_H
