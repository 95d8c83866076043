//===- ChainViews.h - attn-fuse's views of upstream ops ---------*- C++ -*-===//
//
// How attn-fuse's matcher (ChainMatcher.h) sees an op whatever its dialect
// (linalg named ops and generics, TOSA):
//  - Contraction: a linalg contraction (matmul, batch_matmul with or without
//    indexing_maps, a mul/add generic) or tosa.matmul, as indexing maps;
//  - Elementwise: a parallel linalg op whose body is one arith/math op, or a
//    TOSA elementwise op, with each operand as a tensor plus indexing map
//    (broadcasts folded in) or as a splat constant;
//  - Reduction: a max/sum over one dimension (linalg or TOSA);
// and the small queries on values that the matcher and its explain notes
// share (constants, the user that blocks a chain).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_CHAINVIEWS_H
#define ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_CHAINVIEWS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/APFloat.h"

#include <optional>
#include <string>

namespace mlir::attn::fuse {

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
  Max, // arith.maximumf / maxnumf, tosa.maximum
  Reciprocal,
  Extend,  // arith.extf to a wider float
  Truncate // arith.truncf to a narrower float
};

/// "an addition", "a select", ...: the step in remarks.
StringRef describe(EwKind kind);

struct Elementwise {
  Operation *op = nullptr;
  EwKind kind;
  SmallVector<EwOperand, 3> args;
};

/// A max or sum over dimension `dim` of `input`.
struct Reduction {
  Operation *op = nullptr;
  bool isMax = false;
  Value input;
  int64_t dim = 0;
  bool keepDim = false;
};

/// out[o] = sum_red lhs[lhsMap] * rhs[rhsMap], from zero.
struct Contraction {
  Operation *op = nullptr;
  Value lhs, rhs;
  AffineMap lhsMap, rhsMap, outMap;
  unsigned redLoop = 0;
};

/// A K or V operand read through a broadcast: the normalized operand (the
/// tensor before linalg.broadcast / a copy generic, with the composed map)
/// and the indices, in `batch`, of the batch loops it lacks.
struct BroadcastOperand {
  EwOperand operand;
  SmallVector<int64_t> missing;
};

/// The value of a float splat: a scalar constant, a splat dense constant
/// (arith.constant, tosa.const) or a linalg.fill of a scalar constant.
std::optional<APFloat> getSplatFloat(Value v);

/// Whether `v` is a splat zero (float or integer).
bool isSplatZero(Value v);

/// The splat constant converted to f32, if that is exact.
std::optional<float> toExactF32(APFloat f);

/// A tensor operand: splats become scalars, and the input of a
/// linalg.broadcast (or of a generic that only yields its input) is read
/// directly with the composed map.
EwOperand normalizeOperand(Value tensor, AffineMap map);

/// Resolves a value used in the body of `op` to an operand.
FailureOr<EwOperand> resolveBodyValue(linalg::LinalgOp op, Value v);

/// The elementwise view of the op defining `v`, if it has one.
FailureOr<Elementwise> getElementwise(Value v);
/// The elementwise view of `op`, if it has one (and one result: a user of
/// a chain value may be a return or another op without results).
FailureOr<Elementwise> getElementwise(Operation *op);

/// The reduction view of `def`: a max or sum over one dimension.
FailureOr<Reduction> getReduction(Operation *def);

/// The contraction view of `def`; on failure `why` says why not.
FailureOr<Contraction> getContraction(Operation *def, std::string &why);

/// Position of loop `loop` among the results of `map`, or -1.
int64_t positionOf(AffineMap map, unsigned loop);

/// For an operand `x` read through `map` from the loops of contraction `op`
/// whose batch loops are `batch`: x as a broadcast of a tensor that lacks
/// exactly one batch loop of size > 1, not the first batch loop (the query
/// heads of a KV head: grouped-query K or V), and possibly unit batch loops.
std::optional<BroadcastOperand> groupBroadcastOf(Operation *op, Value x,
                                                 AffineMap map,
                                                 ArrayRef<unsigned> batch);

/// The batch loop of size > 1 that `b` lacks (the group dim).
int64_t groupIndexOf(const BroadcastOperand &b, Operation *op,
                     ArrayRef<unsigned> batch);

/// The permutation that reorders the dims of an operand read through `map`
/// into `loops` (for linalg.transpose: result dim k = operand dim perm[k]).
/// Fails unless the operand has exactly these loops.
FailureOr<SmallVector<int64_t>> permutationTo(AffineMap map,
                                              ArrayRef<unsigned> loops);

/// `t` as MLIR prints it.
std::string typeName(Type t);

/// A user of `v` other than `op` (the one the chain expects), or null.
Operation *userOtherThan(Value v, Operation *op);

/// The op that defines `v`, or for a block argument the op whose region
/// holds it (the function, or a generic for a body argument).
Operation *producerOf(Value v);

/// Whether `op` is of a kind an attention chain is made of: an elementwise
/// op, a reduction or a contraction (as the views see them).
bool isChainLike(Operation *op);

/// Where the chain expected `v` to have one user of a certain kind and it
/// does not: the only user (of another kind), or of several the one that
/// cannot be part of the chain (a return, a reshape), else the last of them;
/// or, where `v` has no user, its producer.
Operation *blockingUser(Value v);

/// Whether `o` reads `v` elementwise (through the identity map).
bool isIdentityOperand(const EwOperand &o, Value v);

} // namespace mlir::attn::fuse

#endif // ATTNOPT_LIB_DIALECT_ATTN_TRANSFORMS_CHAINVIEWS_H
