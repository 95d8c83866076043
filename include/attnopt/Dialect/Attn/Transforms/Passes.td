//===- Passes.td - attn transformation passes --------------*- tablegen -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_TD
#define ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnDecomposePass : Pass<"attn-decompose"> {
  let summary = "Lower the attn ops (forward, gradient, packed batches) to "
                "the unfused linalg reference form";
  let description = [{
    Rewrites every `attn.attention_grad` into the gradient formulas of
    docs/semantics.md (materializing P, dP and dS), and every
    `attn.attention` into `linalg.generic` ops on tensors that
    materialize the `[B, Hq, Lq, Lk]` score matrix: Q·Kᵀ with f32
    accumulation, scale/softcap/mask/causal/window, a numerically safe
    softmax (max-subtracted, fully masked rows give 0), dropout with the
    Philox keep mask, and P·V. It is the semantic ground truth that the tiled
    and GPU paths are checked against, not a fast path.

    ```
    attention-opt --attn-decompose in.mlir
    ```

    Before:

    ```mlir
    %o = attn.attention ins(%q, %k, %v : tensor<1x2x4x8xf32>, ...)
        -> tensor<1x2x4x8xf32>
    ```

    After (abridged):

    ```mlir
    %s = linalg.generic {... ["parallel", x4, "reduction"]} ins(%q, %k ...)
    %m = linalg.generic {... reduction over j: maximumf}
    %p = linalg.generic {... exp(s - m)}
    ...
    %o = linalg.generic {... reduction over j: sum p * v}
    ```

    The packed-batch ops `attn.varlen_attention` and
    `attn.varlen_attention_grad` are first rewritten into the batch-1
    `attn.attention` / `attn.attention_grad` over the concatenated sequence
    with a block-diagonal boolean mask built from the offsets (their
    definition, docs/semantics.md section 14), which are then decomposed as
    above.

    The decomposition needs static head counts (the GQA head map is an affine
    `floordiv`); other dimensions may be dynamic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
}


def AttnSelectTilesPass : Pass<"attn-select-tiles"> {
  let summary = "Choose IO-aware tile sizes for each attn.attention";
  let description = [{
    Attaches `attn.tiles = #attn.tiles<block_q, block_kv, stages, warps>` to
    every statically shaped `attn.attention`, chosen from the target's shared
    memory and register budget, the head dims and the element type: the
    FlashAttention rule Bc = ceil(M / 4d), Br = min(Bc, d) (M = shared
    memory in elements), refined to tensor-core shapes (Br in {64, 128}, fewer
    rows for short queries; Bc a multiple of 16, of 64 from 64 up, at most
    128), shrunk until the register estimate fits 255 per thread, then as many
    K/V stages as fit, up to the target's preference. See docs/io-model.md.

    With `report`, each op also gets a remark with the chosen tiles and the
    predicted HBM bytes, FLOPs and arithmetic intensity of the naive and the
    tiled evaluation:

    ```
    attention-opt --attn-select-tiles="chip=sm_80 report" in.mlir
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90a\"",
           "Target GPU: sm_80 (163 KiB of shared memory a block), sm_86 / sm_89 (99 KiB), or sm_90 / sm_90a (227 KiB)">,
    Option<"report", "report", "bool", "false",
           "Emit a remark with the IO report of each op">
  ];
}

def AttnTilePass : Pass<"attn-tile"> {
  let summary = "Tile attn.attention with online softmax (FlashAttention) "
                "and attn.attention_grad with recomputation";
  let description = [{
    Rewrites each `attn.attention` into an `scf.forall` over (batch, query
    head, query block of Br rows) whose body loops (`scf.for`) over the
    key/value blocks of Bc rows, keeping the running row max `m`, row sum `l`
    and an f32 accumulator `acc` [Br, Dv]:

    ```
    S = Q_blk · K_blkᵀ · scale   (+ softcap, + mask)
    m' = max(m, rowmax(S));  P = exp(S - m');  α = exp(m - m')
    l  = α·l + rowsum(P);    acc = α·acc + dropout(P) · V_blk
    O  = acc / l;            lse = m + log(l)
    ```

    The key/value loop of each query block starts and ends at the first and
    last block the causal and window rules leave visible, so fully masked
    blocks are never visited; only blocks that cross a mask boundary (or the
    end of the keys) apply the elementwise mask, selected by an `scf.if`.
    Tiles have static shapes: the last query/key block is padded with zeros
    and its extra columns masked. Mask tensors are read block by block.

    Each `attn.attention_grad` becomes FlashAttention-2's backward with
    recomputation: D = rowsum(dO * O); an `scf.forall` over (batch, kv head,
    key block) looping over the query heads of the group and the query
    blocks that can see the key block, accumulating dK and dV from
    Br x Bc tiles of S, P = exp(S - lse), dP and dS; and an `scf.forall`
    over (batch, query head, query block) accumulating dQ over the visible
    key blocks. No result depends on the order of parallel iterations.

    Tile sizes come from `block-q`/`block-kv` if given, else from the op's
    `attn.tiles` attribute (`attn-select-tiles`), else from the tile
    selection for `chip` (forward) or 64 x 64 (gradient).
  }];
  let options = [
    Option<"blockQ", "block-q", "int64_t", "0", "Query rows per tile (Br)">,
    Option<"blockKV", "block-kv", "int64_t", "0",
           "Key/value rows per step (Bc)">,
    Option<"chip", "chip", "std::string", "\"sm_90a\"",
           "Target used to choose tiles when none are given">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def AttnNormalizeChainsPass : Pass<"attn-normalize-chains"> {
  let summary = "Normalize front-end attention chains for attn-fuse";
  let description = [{
    Rewrites linalg on tensors (TOSA lowered by tosa-to-linalg, or
    torch-mlir-style linalg) into one canonical form, so that attn-fuse
    recognises attention however the front end drew the op boundaries:
    `linalg.softmax` decomposed; named structured ops other than
    `linalg.fill` generalized; reshapes that fold heads into the batch
    (`[B, H, L, D]` to `[B*H, L, D]` around 3-D matmuls) propagated through
    the generics until they cancel; keepdim (unit-dim) `expand_shape`s
    folded into the indexing maps that read them; multi-statement generic
    bodies split into one generic per statement; fill-like generics turned
    back into `linalg.fill`. Unit dims are kept (a size-1 query length is a
    real dimension), and a decode step written as matrix-vector products
    (the query dim dropped: `einsum('bhd,bhkd->bhk')`, `batch_matvec`)
    gets its unit query dim back, so that Q·Kᵀ and P·V are contractions.

    Dynamic sizes as torch-mlir writes them are simplified: a
    `tensor.reshape` whose shape is computed from the operand's sizes
    becomes the `collapse_shape` or `expand_shape` it is, and a gather that
    broadcasts a dynamic size-1 dim (`tensor.extract` at `dim == 1 ? 0 : i`)
    becomes its source. Where the gather's size and its source's are not
    provably equal, a `cf.assert` checks at run time that they are: a
    size-1 dim broadcast to a larger one at run time is not supported.

    Every rewrite preserves semantics (apart from that assertion), and it
    applies to the whole function, not only to attention chains.
    `attn-raise-pipeline` runs it (after the TOSA lowerings, before
    `attn-fuse`).

    ```
    attention-opt --attn-normalize-chains in.mlir
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def AttnFusePass : Pass<"attn-fuse"> {
  let summary = "Fuse unfused attention chains (linalg, TOSA) into attn.attention";
  let description = [{
    Finds attention written as separate upstream ops on tensors and replaces
    each chain with one `attn.attention` (plus the `linalg.transpose`,
    `tensor.expand_shape` and `tensor.collapse_shape` ops that reach and
    leave the `[B, H, L, D]` layout), so that no `Lq x Lk` score or
    probability tensor remains:

    ```
    S = Q·Kᵀ            linalg.matmul / batch_matmul (K through linalg.transpose
                        or indexing_maps), a mul/add contraction generic,
                        tosa.matmul (+ tosa.transpose)
    S = S * c | S / c   optional; c a constant (scalar or splat)
    S = S + bias        optional additive mask (broadcast allowed)
    S = select(m, S, -inf)  optional boolean keep mask
    P = softmax_j(S)    linalg.softmax over the last dim, or max / sub / exp /
                        sum / div (or * reciprocal), linalg or TOSA
    P = P * keep * c    optional dropout: an i1 keep mask (or a 0/1 float
                        tensor made from one, possibly pre-scaled) and
                        c = 1/(1 - p); becomes dropout_p and dropout_mask
    O = P·V             a contraction over j
    ```

    Scores of rank 2 (`[Lq, Lk]`), 3 (`[B*H, Lq, Lk]`, heads as the batch)
    and 4 (`[B, H, Lq, Lk]`) are supported; missing leading dims become 1.
    The anchor of a candidate is its softmax (`linalg.softmax` or the row
    max reduction). A chain is left alone, with a reason, when fusing would
    change what it computes or leave work behind: a softmax over another
    dimension, a non-constant scale, an intermediate with another user, a
    contraction that is not Q·Kᵀ / P·V, a mask applied before the scale,
    `select(m, -inf, s)` (mask true at excluded positions); for dropout, a
    factor that is not 1/(1 - p) for a p in (0, 1), a float keep tensor
    that is not provably 0/1, and dropout before the softmax's row sum.

    Exactness: `S * c` gives `scale = c` (the f32 product is the same).
    `S / c` gives `scale = fl(1/c)`: exact when c is a power of two, else
    `x / c` and `x * fl(1/c)` may differ in the last bit, which is below the
    op's own rounding (PyTorch's `scores / math.sqrt(d)`). A
    softmax that normalizes with `e * (1 / l)` is fused into the op's
    `e / l` (differs by rounding only). A select with a finite fill value
    is not fused unless `large-negative-is-masked` (rows in which every key
    is masked then give 0 instead of the chain's average of V). A dropout
    factor c is fused when fl(1/(1 - p)) = c for an f32 p; when no f32 p
    gives exactly c (e.g. 2.5), only with `inexact-reciprocal`.

    ```
    attention-opt --attn-fuse="explain" in.mlir
    ```

    Before:

    ```mlir
    %kt = linalg.transpose ins(%k : tensor<8x64x32xf32>) outs(...) permutation = [0, 2, 1]
    %s = linalg.batch_matmul ins(%q, %kt : ...) outs(%zero : tensor<8x64x64xf32>)
    %ss = linalg.generic {...} ins(%s : ...) { arith.mulf %x, %cst_0_125 }
    %p = linalg.softmax dimension(2) ins(%ss : ...) outs(...)
    %o = linalg.batch_matmul ins(%p, %v : ...) outs(%zero2 : tensor<8x64x32xf32>)
    ```

    After:

    ```mlir
    %q4 = tensor.expand_shape %q [[0, 1], [2], [3]] ... into tensor<1x8x64x32xf32>
    ...
    %o4 = attn.attention ins(%q4, %k4, %v4 : ...) {scale = 1.250000e-01 : f32}
        -> tensor<1x8x64x32xf32>
    %o = tensor.collapse_shape %o4 [[0, 1], [2], [3]] ...
    ```
  }];
  let options = [
    Option<"explain", "explain", "bool", "false",
           "Emit a remark at each candidate softmax that is not fused, with "
           "the reason">,
    Option<"inexactReciprocal", "inexact-reciprocal", "bool", "false",
           "Fuse a dropout factor c that no f32 p gives exactly as "
           "fl(1/(1 - p)) with the p whose factor is closest to c">,
    Option<"largeNegativeIsMasked", "large-negative-is-masked", "bool",
           "false",
           "Treat select(m, S, v) with a finite v <= -1e4 as a boolean mask "
           "(differs from the chain on rows with no kept key)">,
    Option<"allowPrecisionChange", "allow-precision-change", "bool", "false",
           "Fuse chains whose softmax runs in f16 or bf16: attn.attention "
           "computes it in f32, so the results differ by the chain's own "
           "rounding (without it such chains are left alone, with a remark)">
  ];
  let dependentDialects = [
    "::mlir::attn::AttnDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_TD
