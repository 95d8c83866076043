//===- ReferenceKernel.h - the float64 GPU attention reference --*- C++ -*-===//
//
// A naive CUDA implementation of docs/semantics.md in double precision: one
// thread block per (b, h, i) row (or per (token, head) of a packed batch,
// §14). It reads q, k, v and the mask from device
// memory in their element types (so it sees exactly the kernel's inputs) and
// writes the output [B, Hq, Lq, Dv] and the lse [B, Hq, Lq] as double. It is
// checked against the CPU float64 reference (lib/Reference) by
// `attn-run --self-test`.
//
// The gradient reference (runGpuReferenceGrad) evaluates docs/semantics.md
// §13 the same way: given q, k, v, the mask, the forward output and lse (in
// the element types a backward kernel reads them) and grad_output, it writes
// grad_query, grad_key and grad_value as double. It is checked against
// attnopt::ref::referenceAttentionGrad by the self-test as well.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNRT_REFERENCEKERNEL_H
#define ATTNRT_REFERENCEKERNEL_H

#include "attnrt/DType.h"
#include "attnopt/Reference/AttentionReference.h"

#include <array>
#include <cuda.h>
#include <vector>

namespace attnrt {

/// Runs the reference and waits for it. `dtype` is the element type of q, k
/// and v; `maskDtype` that of the mask (ignored without a mask; `mask` may
/// then be 0). `p.seed`/`p.offset` are the dropout operands; with
/// `p.hasDropoutMask`, the keep bits are read from `dropoutMask` instead (i1
/// stored as bytes, shape `p.dropoutMaskShape`). `out` and `lse` must hold
/// outputElements() and lseElements() doubles. Errors are thrown as
/// attnrt::Error. With `tf32Operands` (a tf32 kernel's reference) Q, K and
/// V are read rounded to tf32 as its matrix products take them
/// (docs/semantics.md §2.1); P's rounding is left to the tolerance, as for
/// f16 kernels.
void runGpuReference(const attnopt::ref::AttentionProblem &p, DType dtype,
                     DType maskDtype, CUdeviceptr q, CUdeviceptr k,
                     CUdeviceptr v, CUdeviceptr mask, CUdeviceptr out,
                     CUdeviceptr lse, CUdeviceptr dropoutMask = 0,
                     bool tf32Operands = false);

/// The packed form (attn.varlen_attention, docs/semantics.md §14) in
/// double: `p` is a PackedBatch problem (p.batch sequences, p.queryLen = Tq
/// and p.keyLen = Tk tokens, no mask; p.seed/p.offset for dropout, whose
/// bits are the dense rule's at b = 0, i = the query token, j = the key
/// token, with Tq rows), `cuQ` and `cuK` its offsets (host; B + 1 each,
/// checked by the caller), q [Tq, Hq, D], k [Tk, Hkv, D] and v [Tk, Hkv, Dv]
/// in `dtype`. `out` ([Tq, Hq, Dv]) and `lse` ([Hq, Tq]) must hold
/// Tq * Hq * Dv and Hq * Tq doubles. Tokens whose sequence has no allowed
/// key get 0 and -inf.
void runGpuReferenceVarlen(const attnopt::ref::AttentionProblem &p,
                           DType dtype, const std::vector<int32_t> &cuQ,
                           const std::vector<int32_t> &cuK, CUdeviceptr q,
                           CUdeviceptr k, CUdeviceptr v, CUdeviceptr out,
                           CUdeviceptr lse);

/// The gradients of attention (docs/semantics.md §13) in double: `out` is
/// the given forward output ([B, Hq, Lq, Dv], element type `dtype`), `lse`
/// the given forward lse ([B, Hq, Lq], f32), `dout` the output gradient
/// ([B, Hq, Lq, Dv], `dtype`); `dq`, `dk`, `dv` must hold queryElements(),
/// keyElements() and valueElements() doubles. P comes from the given lse and
/// D_i from the given output (neither is recomputed); rows with lse = -inf
/// contribute nothing. dk and dv sum over the query heads of a kv head.
/// With `magnitude` it writes instead the sizes of the terms each gradient
/// sums, the same sums over absolute values (dS = P (|dO|·|V| keep/(1-p) +
/// |dO|·|O|), dQ = scale |dS| |K|, ...): the scale of the rounding error
/// of a gradient whose terms cancel (one visible key: dS = 0 exactly),
/// where an error relative to the gradient itself means nothing.
void runGpuReferenceGrad(const attnopt::ref::AttentionProblem &p, DType dtype,
                         DType maskDtype, CUdeviceptr q, CUdeviceptr k,
                         CUdeviceptr v, CUdeviceptr mask, CUdeviceptr out,
                         CUdeviceptr lse, CUdeviceptr dout, CUdeviceptr dq,
                         CUdeviceptr dk, CUdeviceptr dv,
                         bool magnitude = false);

/// The gradients of the packed form (attn.varlen_attention_grad,
/// docs/semantics.md §14) in double: `p`, `cuQ`, `cuK`, q, k and v as for
/// runGpuReferenceVarlen; `out` [Tq, Hq, Dv] and `dout` in `dtype`, `lse`
/// [Hq, Tq] f32; `dq` [Tq, Hq, D], `dk` [Tk, Hkv, D], `dv` [Tk, Hkv, Dv]
/// must hold that many doubles. Each sequence is the batch-1 dense problem
/// of its tokens, evaluated by the dense gradient kernels (strided over the
/// token-major tensors, Philox bits at the packed coordinates), so a token
/// of a sequence without queries gets grad_key = grad_value = 0, and one
/// without keys grad_query = 0.
void runGpuReferenceVarlenGrad(const attnopt::ref::AttentionProblem &p,
                               DType dtype, const std::vector<int32_t> &cuQ,
                               const std::vector<int32_t> &cuK, CUdeviceptr q,
                               CUdeviceptr k, CUdeviceptr v, CUdeviceptr out,
                               CUdeviceptr lse, CUdeviceptr dout,
                               CUdeviceptr dq, CUdeviceptr dk, CUdeviceptr dv,
                               bool magnitude = false);

/// Rounds `n` doubles at `src` to `dtype` (f16, bf16 or f32; nearest even,
/// directly from double: the same values as HostTensor::store) into `dst`.
void runGpuRound(CUdeviceptr src, DType dtype, CUdeviceptr dst, int64_t n);

/// The dropout words dropoutBits(seed, offset, b, h, i, j, Hq, Lq) of every
/// element of [B, Hq, Lq, Lk] (uint32), computed on the GPU.
void runGpuDropoutBits(const attnopt::ref::AttentionProblem &p,
                       CUdeviceptr bits);

/// philox4x32_10 on the GPU for each {c0, c1, c2, c3, k0, k1}.
std::vector<std::array<uint32_t, 4>>
runGpuPhilox(const std::vector<std::array<uint32_t, 6>> &inputs);

} // namespace attnrt

#endif // ATTNRT_REFERENCEKERNEL_H
