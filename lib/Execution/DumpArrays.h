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
// and, for the N-th attn.attention_grad (counted separately, from 0):
//   DIR/gradN.json        the same fields, plus "op": "attn.attention_grad"
//                         and "deterministic" (opN.json has no "op" key)
//   DIR/gradN.<name>.bin  q, k, v, mask, dout (grad_output), out and lse (the
//                         forward results GIVEN to the op: the float64
//                         forward reference rounded to the element type / to
//                         f32), dq, dk, dv (compiled), ref_dq, ref_dk, ref_dv
//                         (the float64 gradient reference on those given,
//                         rounded out/lse: what attn-cpu-run checks against),
//                         ref_out, ref_lse (the float64 forward reference,
//                         unrounded) and ref64_dq, ref64_dk, ref64_dv (the
//                         gradient reference on the unrounded ref_out/ref_lse:
//                         the exact float64 gradient of the inputs, what an
//                         autodiff peer computes)
// and, for the N-th attn.varlen_attention (attn.varlen_attention_grad),
// each sequence b with at least one query and one key token as the batch-1
// dense problem it is (docs/semantics.md §14): DIR/varlenN.seqB.json
// (DIR/vgradN.seqB.json) and its arrays, the fields and arrays of opN
// (gradN) sliced from the packed tensors and laid out [1, H, L, D], plus
// "packed": {"sequence", "query_token", "key_token", "batch"}.
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
#include "attnopt/Reference/PackedReference.h"

#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <vector>

namespace mlir::attn {

/// Writes the opN files above for `op`. `lse` is null when the op has no lse
/// result. Fails (with a diagnostic on `op`) if a file cannot be written.
LogicalResult dumpArrays(StringRef dir, AttentionOp op,
                         const attnopt::ref::AttentionProblem &p,
                         uint64_t inputSeed, const std::vector<double> &q,
                         const std::vector<double> &k,
                         const std::vector<double> &v,
                         const std::vector<double> &mask, const HostTensor &out,
                         const HostTensor *lse,
                         const std::vector<double> &refOut,
                         const std::vector<double> &refLse);

/// What one attn.attention_grad run saw and produced (all float64, dense
/// row-major, inputs after rounding to the types the op takes).
struct GradientDump {
  const std::vector<double> &q, &k, &v, &mask, &dout;
  /// The forward results given to the op (rounded) and the float64 forward
  /// reference they were rounded from.
  const std::vector<double> &out, &lse, &refOut, &refLse;
  /// The compiled gradients.
  const HostTensor &dq, &dk, &dv;
  /// The gradient reference on the given out/lse, and on refOut/refLse.
  const std::vector<double> &refDq, &refDk, &refDv;
  const std::vector<double> &ref64Dq, &ref64Dk, &ref64Dv;
};

/// Writes the gradN files above for `op`.
LogicalResult dumpGradientArrays(StringRef dir, AttentionGradOp op,
                                 const attnopt::ref::AttentionProblem &p,
                                 uint64_t inputSeed, const GradientDump &d);

/// Writes the varlenN.seqB files above for `op`: the packed inputs,
/// compiled output and lse (null without), and the packed reference's.
LogicalResult dumpPackedArrays(StringRef dir, VarlenAttentionOp op,
                               const attnopt::ref::PackedBatch &batch,
                               uint64_t inputSeed, const std::vector<double> &q,
                               const std::vector<double> &k,
                               const std::vector<double> &v,
                               const HostTensor &out, const HostTensor *lse,
                               const std::vector<double> &refOut,
                               const std::vector<double> &refLse);

/// Writes the vgradN.seqB files above for `op` (the GradientDump arrays in
/// the packed layouts; `mask` unused).
LogicalResult dumpPackedGradientArrays(StringRef dir, VarlenAttentionGradOp op,
                                       const attnopt::ref::PackedBatch &batch,
                                       uint64_t inputSeed,
                                       const GradientDump &d);

} // namespace mlir::attn

#endif // ATTNOPT_LIB_EXECUTION_DUMPARRAYS_H
