//===- DumpArrays.h - write one op's inputs and results to disk -*- C++ -*-===//
//
// attn-cpu-run --dump-dir=DIR writes, for the N-th attn.attention of the
// module (N counted in the order attn-cpu-run runs them, from 0):
//   DIR/opN.json          the problem: shapes, element type, effective scale,
//                         causal mode, window, softcap, mask kind and shape,
//                         dropout_p, and the name and shape of each array file
//   DIR/opN.<name>.bin    raw little-endian float64, dense row-major, for
//                         q, k, v, mask (0/1 for a boolean mask), out (the
//                         compiled output decoded to double), lse (compiled,
//                         if the op has one), ref_out and ref_lse (the float64
//                         reference)
// Inputs are the values actually fed to the kernel (already rounded to the
// element type), so a peer implementation sees exactly what the reference saw.
// scripts/jax_peer_check.py reads these files.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_LIB_EXECUTION_DUMPARRAYS_H
#define ATTNOPT_LIB_EXECUTION_DUMPARRAYS_H

#include "HostTensors.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Reference/AttentionReference.h"

#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <vector>

namespace mlir::attn {

/// Writes the files above for `op`. `lse` is null when the op has no lse
/// result. Fails (with a diagnostic on `op`) if a file cannot be written.
LogicalResult dumpArrays(StringRef dir, AttentionOp op,
                         const attnopt::ref::AttentionProblem &p,
                         uint64_t inputSeed, const std::vector<double> &q,
                         const std::vector<double> &k,
                         const std::vector<double> &v,
                         const std::vector<double> &mask,
                         const HostTensor &out, const HostTensor *lse,
                         const std::vector<double> &refOut,
                         const std::vector<double> &refLse);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_DUMPARRAYS_H
