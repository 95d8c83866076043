//===- Passes.td - attn transformation passes --------------*- tablegen -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_TD
#define ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnDecomposePass : Pass<"attn-decompose"> {
  let summary = "Lower attn.attention to the unfused linalg reference form";
  let description = [{
    Rewrites every `attn.attention` into `linalg.generic` ops on tensors that
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

    The decomposition needs static head counts (the GQA head map is an affine
    `floordiv`); other dimensions may be dynamic.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // ATTNOPT_DIALECT_ATTN_TRANSFORMS_PASSES_TD
