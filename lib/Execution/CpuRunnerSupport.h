//===- CpuRunnerSupport.h - shared pieces of the CPU runners ----*- C++ -*-===//
//
// What running attn.attention and attn.attention_grad on the CPU have in
// common: reading the problem off the op, building the memref entry function
// around a clone of the op, lowering and JIT compilation, the input
// generator and the error measures.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_EXECUTION_CPURUNNERSUPPORT_H
#define ATTNOPT_LIB_EXECUTION_CPURUNNERSUPPORT_H

#include "HostTensors.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Execution/CpuRunner.h"
#include "attnopt/Reference/AttentionReference.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <limits>
#include <memory>
#include <random>
#include <vector>

namespace mlir::attn {

using attnopt::ref::AttentionProblem;

/// The entry point every CPU kernel module exposes.
inline constexpr llvm::StringLiteral kCpuKernelName = "attn_kernel";

FailureOr<HostElementType> hostType(Operation *op, Type t);
std::vector<int64_t> shapeOf(Value v);
MemRefType memrefFor(Value tensor);

/// Whether `op` has a dynamic (run-time) size in any tensor.
bool hasRunTimeSizes(Operation *op);

/// Reads the problem definition off a verified op, its dynamic batch and
/// lengths bound to `sizes` (an error at the op for one not given, or for a
/// dynamic head count or head dim).
FailureOr<AttentionProblem> problemOf(AttentionOpInterface op,
                                      const RunSizes &sizes);

/// Sets the score attributes of `p` from `op`: scale, causal, window,
/// softcap and dropout_p.
void setScoreAttributes(AttentionOpInterface op, AttentionProblem &p);

/// Builds `func @attn_kernel(<tensor operands as memrefs>..., [seed, offset],
/// <results as memrefs>...)` in `module`, around a clone of `op`: tensor
/// operands in operand order, then the i64 rng operands, then one memref per
/// result, written with materialize_in_destination.
void buildCpuEntryFunction(OpBuilder &b, ModuleOp module, Operation *op);

/// Initializes the native target once, loads the dialects the entry
/// functions are built with (the input need not contain them) and registers
/// the LLVM IR translations.
void prepareForJit(MLIRContext *ctx);

/// Runs `options.lowering` and the common tail down to the LLVM dialect.
LogicalResult lowerToLLVM(ModuleOp module, const CpuRunOptions &options);

/// Lowers `module` and JIT-compiles it; diagnostics go to `op`.
FailureOr<std::unique_ptr<ExecutionEngine>>
compileForCpu(Operation *op, ModuleOp module, const CpuRunOptions &options);

/// Random inputs that make softmax neither uniform nor one-hot; masks with
/// some excluded entries and some fully excluded rows.
class InputGenerator {
public:
  explicit InputGenerator(uint64_t seed) : rng(seed) {}

  std::vector<double> fill(HostTensor &t, double lo, double hi) {
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<double> values(t.numElements());
    for (int64_t i = 0; i < t.numElements(); ++i)
      values[i] = t.store(i, dist(rng));
    return values;
  }

  std::vector<double> fillMask(HostTensor &t, int64_t rowLen) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<double> values(t.numElements());
    bool boolean = t.elementType() == HostElementType::I1;
    for (int64_t row = 0; row < t.numElements() / std::max<int64_t>(rowLen, 1);
         ++row) {
      bool rowOff = unit(rng) < 0.1;
      for (int64_t j = 0; j < rowLen; ++j) {
        int64_t i = row * rowLen + j;
        bool off = rowOff || unit(rng) < 0.25;
        double v = boolean ? (off ? 0.0 : 1.0)
                           : (off ? -std::numeric_limits<double>::infinity()
                                  : 6.0 * unit(rng) - 3.0);
        values[i] = t.store(i, v);
      }
    }
    return values;
  }

  /// An i1 dropout keep mask: each element kept (1) with probability
  /// 1 - `p`.
  std::vector<double> fillKeep(HostTensor &t, double p) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<double> values(t.numElements());
    for (int64_t i = 0; i < t.numElements(); ++i)
      values[i] = t.store(i, unit(rng) >= p ? 1.0 : 0.0);
    return values;
  }

  uint64_t next() { return rng(); }

private:
  std::mt19937_64 rng;
};

/// The host element type of the op's mask (none without a mask); fails
/// with a diagnostic for an unsupported one.
FailureOr<std::optional<HostElementType>> maskHostType(AttentionOpInterface op);

/// The attention inputs every CPU run generates, in this order from one
/// generator: Q, K in [-2, 2], V in [-1, 1], the mask, then the dropout
/// seed and offset (also stored into `p`), then the explicit dropout keep
/// mask if the op has one (random bits, kept with probability 1 - p). The
/// `*Values` vectors hold what was stored after rounding to the element
/// type: what the reference sees.
struct AttentionInputs {
  /// The inputs of `op` from `gen`, in the host types of its element and
  /// mask types; fails with a diagnostic at the op when one has none.
  static FailureOr<AttentionInputs>
  generate(AttentionOpInterface op, InputGenerator &gen, AttentionProblem &p);

  AttentionInputs(AttentionOpInterface op, HostElementType t,
                  std::optional<HostElementType> maskType, InputGenerator &gen,
                  AttentionProblem &p);

  HostElementType type; ///< of q, k, v
  HostTensor q, k, v;
  std::optional<HostTensor> mask, dropoutMask;
  std::vector<double> qValues, kValues, vValues, maskValues, dropoutMaskValues;
  int64_t seed = 0, offset = 0;
};

/// Runs `op` once (static shapes) or once per size draw of `options.sizes`
/// (run-time sizes): binds every draw's problem first with `problemFor`
/// (size errors before the slow compilation), compiles the module
/// `buildModule` returns once, then calls `run` per draw with its problem
/// and index (draws get fresh inputs from it). Every draw runs; fails if any
/// does.
LogicalResult runEachDraw(
    AttentionOpInterface op, const CpuRunOptions &options,
    function_ref<FailureOr<AttentionProblem>(const RunSizes &)> problemFor,
    function_ref<OwningOpRef<ModuleOp>()> buildModule,
    function_ref<LogicalResult(ExecutionEngine &, const AttentionProblem &,
                               unsigned)>
        run);

/// Stores `values` into `t` and returns what was stored (after rounding).
std::vector<double> storeAll(HostTensor &t, const std::vector<double> &values);

/// A forward op's results against the reference: the output's relative
/// error (maxRelativeError), the lse's |got - ref| / max(1, |ref|) over
/// finite values, the -inf positions that differ, and NaNs in either.
struct ForwardComparison {
  double outRelErr = 0.0, lseErr = 0.0;
  int64_t lseInfMismatches = 0, nans = 0;
};
ForwardComparison compareForward(const HostTensor &out,
                                 const std::vector<double> &refOut,
                                 const HostTensor *lse,
                                 const std::vector<double> &refLse);

/// Whether `c` passes (no NaN, the output within `tol`, the lse within
/// 1e-5 and -inf where the reference is) after printing its lines to `os`:
/// the output's error, the lse's (with `hasLse`) and the NaN count if any.
bool reportForward(llvm::raw_ostream &os, const ForwardComparison &c,
                   double tol, bool hasLse);

/// Invokes the entry function of kCpuKernelName with the memref descriptors
/// of `tensors`, in order (an op without scalar operands); fails at `op`.
LogicalResult invokeOnTensors(Operation *op, ExecutionEngine &engine,
                              ArrayRef<HostTensor *> tensors);

/// Default relative tolerance of an output of element type `elt`.
double defaultTolerance(Type elt);

/// The rounding error an f32 score may carry (absolute): one unit roundoff
/// (2^-24) of a score of random-sign terms, |scale| sqrt(D) max|q| max|k|
/// (measured: 1.9e-5 relative output error at scale = 30, D = 136, where
/// this allows 1.8e-4). A problem with large scores (scale = 30, say) then has
/// probabilities, lse and output legitimately further from the float64
/// reference than a fixed relative tolerance allows; the forward's
/// tolerances are widened by it (lse by e, the output by expm1(2e) max|v| /
/// max|ref|, as an approximate softcap's on the GPU).
double scoreRoundingError(float scale, int64_t headDim, ArrayRef<double> q,
                          ArrayRef<double> k);

/// max |got - ref| / max |ref| over the non-NaN elements; NaNs (unwritten or
/// broken outputs) are counted in `nans`.
double maxRelativeError(const HostTensor &got, const std::vector<double> &ref,
                        int64_t &nans);

/// The three gradients of a backward op and their float64 references, in
/// the order dQ, dK, dV.
struct GradientResults {
  std::array<const HostTensor *, 3> got;
  std::array<const std::vector<double> *, 3> ref;
};

/// Judges and prints (a line each) the three gradients: max|err| / max|ref|
/// within `tol`; where a gradient is not, its terms may cancel (a row with
/// one allowed key, a saturated softcap) and the reference be rounding
/// noise, so each element is then checked against tol · max|ref| plus
/// attnopt::ref::kGradientCancellationFloor times the size of the terms it
/// sums (`sizes()`, called only then: dQ, dK, dV as
/// referenceAttentionGradMagnitudes gives them), as kernels-runtime does
/// for the GPU's gradients. NaNs (counted into `nans`) fail.
bool checkGradients(
    const GradientResults &grads, double tol,
    llvm::function_ref<std::array<std::vector<double>, 3>()> sizes,
    llvm::raw_ostream &os, int64_t &nans);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_CPURUNNERSUPPORT_H
