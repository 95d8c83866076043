//===- RaiseCheck.h - translation validation of the raising -----*- C++ -*-===//
//
// Proves, by testing, that raising a function (attn-raise-pipeline, or any
// pipeline) kept what it computes: the function is JIT-compiled three times
// on the CPU, as written (after the TOSA lowerings), as written but with
// every float promoted to f64 (the reference), and after the raising (its
// attn ops lowered by `lowering`), and the three run on the same seeded
// random inputs. Every result of the raised function must be within the
// tolerance of the float64 chain. A function with dynamic sizes is raised
// as it is and run at the shapes given (`--shapes`), each draw a fresh
// specialization of the three variants.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_EXECUTION_RAISECHECK_H
#define ATTNOPT_EXECUTION_RAISECHECK_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::attn {

struct RaiseCheckOptions {
  /// Seeds the inputs; draw k of a function uses seed + k.
  uint64_t seed = 1;
  /// Input draws per function.
  unsigned runs = 2;
  /// The raising: a textual pass pipeline on builtin.module.
  std::string pipeline = "attn-raise-pipeline";
  /// func.func pipeline that removes the attn ops after the raising.
  std::string lowering = "attn-decompose";
  /// Max relative error against the float64 chain; unset: by the result's
  /// element type (f32 1e-5, f16 2e-3, bf16 8e-3, f64 1e-12), or twice the
  /// chain's own error when that is larger.
  std::optional<double> tolerance;
  /// Fail a function in which the raising made no attn.attention.
  bool requireRaised = false;
  /// Only this function (all public functions with tensor arguments when
  /// empty).
  std::string function;
  /// Shapes to check functions with dynamic sizes at, one entry per draw:
  /// the arguments' shapes and, after `->`, the results'
  /// (`2x4x16x32,2x4x24x32,2x4x24x32->2x4x16x32`; the results may be
  /// left out where they are static). The raising runs on the dynamic
  /// function; the three variants are then run at these shapes. Functions
  /// with dynamic sizes are skipped when empty.
  std::vector<std::string> shapes;
};

/// Checks each selected function of `module` and prints one report per
/// result to `os`. Fails if any function cannot be run or differs.
LogicalResult checkRaising(ModuleOp module, const RaiseCheckOptions &options,
                           llvm::raw_ostream &os);

} // namespace mlir::attn

#endif // ATTNOPT_EXECUTION_RAISECHECK_H
