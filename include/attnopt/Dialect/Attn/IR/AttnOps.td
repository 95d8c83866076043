//===- AttnOps.td - attn operations ------------------------*- tablegen -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_IR_ATTNOPS_TD
#define ATTNOPT_DIALECT_ATTN_IR_ATTNOPS_TD

include "attnopt/Dialect/Attn/IR/AttnDialect.td"
include "attnopt/Dialect/Attn/IR/AttnEnums.td"
include "attnopt/Dialect/Attn/IR/AttnInterfaces.td"
include "mlir/Dialect/Linalg/IR/LinalgInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"

def Attn_AttentionElementType : AnyTypeOf<[F16, BF16, F32]>;

def Attn_AttentionOp : Attn_Op<"attention", [
    Pure, AttrSizedOperandSegments, Attn_AttentionOpInterface,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let summary = "Scaled dot-product attention";
  let description = [{
    Computes, for every batch `b`, query head `h`, query row `i` and value
    column `e`:

    ```
    s[j]   = scale * sum_d q[b,h,i,d] * k[b,h/G,j,d]      (G = Hq / Hkv)
    s[j]   = softcap * tanh(s[j] / softcap)                  (if softcap)
    s[j]   = s[j] + mask[b,h,i,j]                            (float mask)
    s[j]   = -inf  where j is not allowed                    (see below)
    p[j]   = exp(s[j] - max_j s) / sum_j exp(s[j] - max_j s)
    out    = sum_j dropout(p[j]) * v[b,h/G,j,e]
    lse    = log(sum_j exp(s[j]))                            (natural log)
    ```

    Shapes: `query` is `[B, Hq, Lq, D]`, `key` is `[B, Hkv, Lk, D]`, `value`
    is `[B, Hkv, Lk, Dv]`, `output` is `[B, Hq, Lq, Dv]` and the optional
    `lse` result is `[B, Hq, Lq]` in f32. `Hq` must be a multiple of `Hkv`
    (GQA; `Hkv = 1` is MQA). `query`, `key`, `value` and `output` share one
    element type among f16, bf16 and f32; arithmetic is done in f32.

    Key `j` is allowed for query row `i` when all of these hold, with
    `delta = Lk - Lq` for `causal = bottom_right` and `delta = 0` otherwise:
    - the boolean `mask` (i1, true = keep), if given, is true at (i, j);
    - `causal` is `none`, or `j <= i + delta`;
    - `window = [left, right]`, if given: `i + delta - left <= j` unless
      `left = -1`, and `j <= i + delta + right` unless `right = -1`.

    The optional `mask` has rank 4 and broadcasts to `[B, Hq, Lq, Lk]`: each
    of its dimensions is either 1 or the full size. An i1 mask selects keys;
    a floating-point mask is added to the scores.

    `scale` defaults to `1/sqrt(D)`. With `dropout_p > 0`, the keep mask of
    the probabilities comes from exactly one of two sources:
    - the i64 `seed` and `offset` operands (`rng(...)`): element
      (b, h, i, j) is kept iff `philox_keep(seed, offset, b, h, i, j, p)`
      (defined exactly in docs/semantics.md);
    - an explicit `dropout_mask` (i1, true = keep, rank 4, broadcast to
      `[B, Hq, Lq, Lk]` like `mask`): element (b, h, i, j) is kept iff the
      mask is true there.
    Kept values are scaled by `1/(1 - p)`, dropped ones are 0; the row sum
    and `lse` use the probabilities before dropout either way. A row in
    which no key is allowed gives output 0 and lse -inf.

    Example:

    ```mlir
    %out, %lse = attn.attention
        ins(%q, %k, %v : tensor<2x8x128x64xbf16>, tensor<2x2x256x64xbf16>,
                         tensor<2x2x256x64xbf16>)
        {causal = #attn.causal<bottom_right>, scale = 0.125 : f32}
        -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
    ```

    Dropout with an explicit keep mask:

    ```mlir
    %out = attn.attention
        ins(%q, %k, %v : tensor<2x8x128x64xf32>, tensor<2x8x128x64xf32>,
                         tensor<2x8x128x64xf32>)
        dropout_mask(%keep : tensor<2x8x128x128xi1>)
        {dropout_p = 0.25 : f32} -> tensor<2x8x128x64xf32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    Optional<AnyRankedTensor>:$mask,
    Optional<AnyRankedTensor>:$dropout_mask,
    Optional<I64>:$seed,
    Optional<I64>:$offset,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_CausalModeAttr, "::mlir::attn::CausalMode::none">:$causal,
    OptionalAttr<DenseI64ArrayAttr>:$window,
    OptionalAttr<F32Attr>:$softcap,
    UnitAttr:$softcap_approx,
    DefaultValuedAttr<F32Attr, "0.0f">:$dropout_p
  );
  let results = (outs
    AnyRankedTensor:$output,
    Optional<AnyRankedTensor>:$lse
  );

  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,`
              type($value) `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`dropout_mask` `(` $dropout_mask^ `:` type($dropout_mask) `)`)?
    (`rng` `(` $seed^ `,` $offset `)`)?
    attr-dict `->` type($output) (`,` type($lse)^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    RankedTensorType getOutputType() {
      return ::llvm::cast<RankedTensorType>(getOutput().getType());
    }
  }];
}

def Attn_AttentionGradOp : Attn_Op<"attention_grad", [
    Pure, AttrSizedOperandSegments, Attn_AttentionOpInterface,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let summary = "Gradients of scaled dot-product attention";
  let description = [{
    The backward pass of `attn.attention`: given the forward inputs, the
    forward results `output` ([B, Hq, Lq, Dv], the input element type) and
    `lse` ([B, Hq, Lq], f32) and the gradient `grad_output` of a loss with
    respect to `output`, returns the gradients of that loss with respect to
    `query`, `key` and `value`, in their shapes and element type.

    Scores are recomputed from Q, K and the saved `lse`, never stored:

    ```
    p[i,j]  = exp(s[i,j] - lse[i])           (s as in attn.attention; 0 where
                                              key j is not allowed or lse = -inf)
    pd      = p * keep / (1 - dropout_p)      (keep: the forward's Philox bits
                                              or its dropout_mask)
    D[i]    = sum_e grad_output[i,e] * output[i,e]
    dV[j]  += sum_i pd[i,j] * grad_output[i]
    dP[i,j] = (grad_output[i] . v[j]) * keep / (1 - dropout_p)
    dS[i,j] = p[i,j] * (dP[i,j] - D[i]) * (1 - (s_capped[i,j]/softcap)^2)
    dQ[i]   = scale * sum_j dS[i,j] * k[j]
    dK[j]  += scale * sum_i dS[i,j] * q[i]
    ```

    (the softcap factor only with `softcap`). Under GQA/MQA, `dK` and `dV`
    sum over the `Hq / Hkv` query heads that share a key/value head. The mask,
    `scale`, `causal`, `window`, `softcap`, `dropout_p` and `rng` operands must
    be those of the forward op, and so must `dropout_mask` (the explicit
    keep mask, instead of `rng`): `keep` is then read from it. `deterministic` asks the lowering for
    bit-identical `grad_query` across runs (no atomic accumulation). Exact
    definition: docs/semantics.md, "Gradients".

    Example:

    ```mlir
    %dq, %dk, %dv = attn.attention_grad
        ins(%q, %k, %v : tensor<2x8x128x64xbf16>, tensor<2x2x256x64xbf16>,
                         tensor<2x2x256x64xbf16>)
        forward(%o, %lse : tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>)
        grad_output(%do : tensor<2x8x128x64xbf16>)
        {causal = #attn.causal<bottom_right>, scale = 0.125 : f32}
        -> tensor<2x8x128x64xbf16>, tensor<2x2x256x64xbf16>,
           tensor<2x2x256x64xbf16>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    AnyRankedTensor:$output,
    AnyRankedTensor:$lse,
    AnyRankedTensor:$grad_output,
    Optional<AnyRankedTensor>:$mask,
    Optional<AnyRankedTensor>:$dropout_mask,
    Optional<I64>:$seed,
    Optional<I64>:$offset,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_CausalModeAttr, "::mlir::attn::CausalMode::none">:$causal,
    OptionalAttr<DenseI64ArrayAttr>:$window,
    OptionalAttr<F32Attr>:$softcap,
    UnitAttr:$softcap_approx,
    DefaultValuedAttr<F32Attr, "0.0f">:$dropout_p,
    UnitAttr:$deterministic
  );
  let results = (outs
    AnyRankedTensor:$grad_query,
    AnyRankedTensor:$grad_key,
    AnyRankedTensor:$grad_value
  );

  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,`
              type($value) `)`
    `forward` `(` $output `,` $lse `:` type($output) `,` type($lse) `)`
    `grad_output` `(` $grad_output `:` type($grad_output) `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`dropout_mask` `(` $dropout_mask^ `:` type($dropout_mask) `)`)?
    (`rng` `(` $seed^ `,` $offset `)`)?
    attr-dict `->` type($grad_query) `,` type($grad_key) `,` type($grad_value)
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    RankedTensorType getOutputType() {
      return ::llvm::cast<RankedTensorType>(getOutput().getType());
    }
  }];
}

def Attn_VarlenAttentionOp : Attn_Op<"varlen_attention", [
    Pure, AttrSizedOperandSegments, Attn_AttentionOpInterface,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let summary = "Attention over a packed batch of variable-length sequences";
  let description = [{
    `attn.attention` applied to each sequence of a packed batch on its own.
    The query tokens of all `B` sequences are concatenated into `query`
    (`[Tq, Hq, D]`, token-major like FlashAttention's varlen API), the key
    and value tokens into `key` (`[Tk, Hkv, D]`) and `value`
    (`[Tk, Hkv, Dv]`). Sequence `b` owns query tokens
    `[cu_seqlens_q[b], cu_seqlens_q[b+1])` and key/value tokens
    `[cu_seqlens_k[b], cu_seqlens_k[b+1])`; both offset tensors are
    `tensor<(B+1)xi32>` with offset 0 first, non-decreasing, and the total
    token count last. A sequence may be empty on either side.

    Within sequence `b`, the scores, softcap, `causal` and `window` rules
    and the softmax are those of `attn.attention` with `Lq` and `Lk` the
    sequence's own lengths (so `causal = bottom_right` aligns each
    sequence's last query with its last key); a query never sees another
    sequence's keys. `output` is `[Tq, Hq, Dv]`, the optional `lse` is
    `[Hq, Tq]` f32 (per token, -inf for a token with no allowed key).
    Equivalently: `attn.attention` with batch 1 on the concatenated sequence
    (query `[1, Hq, Tq, D]`) with a block-diagonal boolean mask; that is the
    reference decomposition, and it fixes the Philox dropout coordinates:
    element (h, t, u) of the packed scores (query token t, key token u) is
    kept iff `philox_keep(seed, offset, 0, h, t, u, p)` with `Hq` heads and
    `Tq` query rows (docs/semantics.md, section 14).

    There is no `mask` or `dropout_mask` operand (no per-sequence score
    tensor to broadcast); express masks through `causal` and `window`.

    Example:

    ```mlir
    %out, %lse = attn.varlen_attention
        ins(%q, %k, %v : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>,
                         tensor<?x8x128xbf16>)
        seqlens(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
        {causal = #attn.causal<bottom_right>}
        -> tensor<?x32x128xbf16>, tensor<32x?xf32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    AnyRankedTensor:$cu_seqlens_q,
    AnyRankedTensor:$cu_seqlens_k,
    Optional<I64>:$seed,
    Optional<I64>:$offset,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_CausalModeAttr, "::mlir::attn::CausalMode::none">:$causal,
    OptionalAttr<DenseI64ArrayAttr>:$window,
    OptionalAttr<F32Attr>:$softcap,
    UnitAttr:$softcap_approx,
    DefaultValuedAttr<F32Attr, "0.0f">:$dropout_p
  );
  let results = (outs
    AnyRankedTensor:$output,
    Optional<AnyRankedTensor>:$lse
  );

  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,`
              type($value) `)`
    `seqlens` `(` $cu_seqlens_q `,` $cu_seqlens_k `:` type($cu_seqlens_q) `,`
                  type($cu_seqlens_k) `)`
    (`rng` `(` $seed^ `,` $offset `)`)?
    attr-dict `->` type($output) (`,` type($lse)^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    RankedTensorType getOutputType() {
      return ::llvm::cast<RankedTensorType>(getOutput().getType());
    }
    /// No mask operands on a packed batch (AttentionOpInterface).
    ::mlir::Value getMask() { return {}; }
    ::mlir::Value getDropoutMask() { return {}; }
  }];
}

def Attn_VarlenAttentionGradOp : Attn_Op<"varlen_attention_grad", [
    Pure, AttrSizedOperandSegments, Attn_AttentionOpInterface,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let summary = "Gradients of attention over a packed variable-length batch";
  let description = [{
    The backward pass of `attn.varlen_attention`, as `attn.attention_grad`
    is that of `attn.attention`: given the forward inputs and offsets, its
    results `output` (`[Tq, Hq, Dv]`) and `lse` (`[Hq, Tq]` f32) and the
    gradient `grad_output` (`[Tq, Hq, Dv]`), returns the gradients with
    respect to `query`, `key` and `value` in their packed shapes. Each
    sequence's gradients are those of `attn.attention_grad` on that sequence
    alone; the score attributes and `rng` must be the forward's.

    Example:

    ```mlir
    %dq, %dk, %dv = attn.varlen_attention_grad
        ins(%q, %k, %v : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>,
                         tensor<?x8x128xbf16>)
        seqlens(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
        forward(%o, %lse : tensor<?x32x128xbf16>, tensor<32x?xf32>)
        grad_output(%do : tensor<?x32x128xbf16>)
        {causal = #attn.causal<bottom_right>}
        -> tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    AnyRankedTensor:$cu_seqlens_q,
    AnyRankedTensor:$cu_seqlens_k,
    AnyRankedTensor:$output,
    AnyRankedTensor:$lse,
    AnyRankedTensor:$grad_output,
    Optional<I64>:$seed,
    Optional<I64>:$offset,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_CausalModeAttr, "::mlir::attn::CausalMode::none">:$causal,
    OptionalAttr<DenseI64ArrayAttr>:$window,
    OptionalAttr<F32Attr>:$softcap,
    UnitAttr:$softcap_approx,
    DefaultValuedAttr<F32Attr, "0.0f">:$dropout_p,
    UnitAttr:$deterministic
  );
  let results = (outs
    AnyRankedTensor:$grad_query,
    AnyRankedTensor:$grad_key,
    AnyRankedTensor:$grad_value
  );

  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,`
              type($value) `)`
    `seqlens` `(` $cu_seqlens_q `,` $cu_seqlens_k `:` type($cu_seqlens_q) `,`
                  type($cu_seqlens_k) `)`
    `forward` `(` $output `,` $lse `:` type($output) `,` type($lse) `)`
    `grad_output` `(` $grad_output `:` type($grad_output) `)`
    (`rng` `(` $seed^ `,` $offset `)`)?
    attr-dict `->` type($grad_query) `,` type($grad_key) `,` type($grad_value)
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    RankedTensorType getOutputType() {
      return ::llvm::cast<RankedTensorType>(getOutput().getType());
    }
    /// No mask operands on a packed batch (AttentionOpInterface).
    ::mlir::Value getMask() { return {}; }
    ::mlir::Value getDropoutMask() { return {}; }
  }];
}

def Attn_PagedAttentionOp : Attn_Op<"paged_attention", [
    Pure, Attn_AttentionOpInterface,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let summary = "Attention against a paged key/value cache (decoding)";
  let description = [{
    `attn.attention` for each sequence of a batch whose keys and values live
    in a paged cache, as vLLM, FlashInfer and FlashAttention's
    `flash_attn_with_kvcache` lay it out. `query` is `[B, Hq, Lq, D]` (the
    new tokens of each sequence), `key` is the key cache
    `[P, page_size, Hkv, D]` and `value` the value cache
    `[P, page_size, Hkv, Dv]` (P pages of `page_size` tokens, token-major
    inside a page). Sequence `b` has `cache_seqlens[b]` keys (the cache
    length, new tokens included); its key position `j` is token
    `j mod page_size` of page `block_table[b, j floordiv page_size]`.
    `block_table` is `tensor<B x max_pages x i32>` and `cache_seqlens`
    `tensor<B x i32>`, with `0 <= cache_seqlens[b] <= max_pages * page_size`
    and the first `ceil(cache_seqlens[b] / page_size)` entries of row `b` of
    the table page indices in `[0, P)`; entries past them are never read
    (any value, e.g. -1). Pages may be shared and in any order.

    Within sequence `b` the scores, softcap, `causal` and `window` rules and
    the softmax are those of `attn.attention` with `Lk = cache_seqlens[b]`
    (so `causal = bottom_right` aligns the last query with the last cached
    key: the new tokens are at the end of the cache). `output` is
    `[B, Hq, Lq, Dv]`, the optional `lse` `[B, Hq, Lq]` f32; a row with no
    allowed key (an empty cache) gives output 0 and lse -inf. There is no
    mask or dropout (docs/semantics.md, section 15).

    Example (decoding one token per sequence, GQA 32/8, pages of 64):

    ```mlir
    %out, %lse = attn.paged_attention
        ins(%q : tensor<4x32x1x128xbf16>)
        cache(%kc, %vc : tensor<2048x64x8x128xbf16>,
                         tensor<2048x64x8x128xbf16>)
        pages(%table, %lens : tensor<4x512xi32>, tensor<4xi32>)
        {causal = #attn.causal<bottom_right>}
        -> tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    AnyRankedTensor:$block_table,
    AnyRankedTensor:$cache_seqlens,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_CausalModeAttr, "::mlir::attn::CausalMode::none">:$causal,
    OptionalAttr<DenseI64ArrayAttr>:$window,
    OptionalAttr<F32Attr>:$softcap,
    UnitAttr:$softcap_approx
  );
  let results = (outs
    AnyRankedTensor:$output,
    Optional<AnyRankedTensor>:$lse
  );

  let assemblyFormat = [{
    `ins` `(` $query `:` type($query) `)`
    `cache` `(` $key `,` $value `:` type($key) `,` type($value) `)`
    `pages` `(` $block_table `,` $cache_seqlens `:` type($block_table) `,`
                type($cache_seqlens) `)`
    attr-dict `->` type($output) (`,` type($lse)^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    RankedTensorType getOutputType() {
      return ::llvm::cast<RankedTensorType>(getOutput().getType());
    }
    /// Tokens per cache page (dimension 1 of the caches).
    int64_t getPageSize() { return getKeyType().getDimSize(1); }
    /// No mask or dropout on a paged cache (AttentionOpInterface).
    ::mlir::Value getMask() { return {}; }
    ::mlir::Value getDropoutMask() { return {}; }
    ::mlir::Value getSeed() { return {}; }
    ::mlir::Value getOffset() { return {}; }
    ::llvm::APFloat getDropoutP() { return ::llvm::APFloat(0.0f); }
  }];
}

def Attn_MergePartialsOp : Attn_Op<"merge_partials", [
    Pure,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let summary = "Merge partial attention results by their log-sum-exp";
  let description = [{
    Merges S partial results of one attention, each computed over its own
    subset of the keys and normalised over it (the `output` and `lse` of
    `attn.attention` on that subset), into the result over all the keys:
    for every row r (every position of the dimensions between S and Dv),

    ```
    m         = max_s partial_lse[s, r]
    w_s       = exp(partial_lse[s, r] - m)      (0 where partial_lse = -inf)
    output[r] = sum_s w_s * partial_output[s, r, :] / sum_s w_s
    lse[r]    = m + log(sum_s w_s)
    ```

    A partial whose lse is -inf (no allowed key in its subset) contributes
    nothing, and its output is not read (it may hold anything); a row whose
    partials all have lse -inf gets output 0 and lse -inf. This is the
    combine step of split-KV decoding, for pipelines that split attention
    themselves: context parallelism, chunked prefill, a cache split across
    devices (docs/semantics.md, section 16).

    `partial_output` is `[S, d..., Dv]` (f16, bf16 or f32), `partial_lse`
    `[S, d...]` f32 (natural log); `output` is `[d..., Dv]` (f16, bf16 or
    f32; arithmetic in f32), the optional `lse` `[d...]` f32.

    Example (two halves of a cache, merged into bf16):

    ```mlir
    %o, %lse = attn.merge_partials
        ins(%po, %pl : tensor<2x4x32x1x128xf32>, tensor<2x4x32x1xf32>)
        -> tensor<4x32x1x128xbf16>, tensor<4x32x1xf32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$partial_output,
    AnyRankedTensor:$partial_lse
  );
  let results = (outs
    AnyRankedTensor:$output,
    Optional<AnyRankedTensor>:$lse
  );

  let assemblyFormat = [{
    `ins` `(` $partial_output `,` $partial_lse `:` type($partial_output) `,`
              type($partial_lse) `)`
    attr-dict `->` type($output) (`,` type($lse)^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    RankedTensorType getPartialOutputType() {
      return ::llvm::cast<RankedTensorType>(getPartialOutput().getType());
    }
    RankedTensorType getOutputType() {
      return ::llvm::cast<RankedTensorType>(getOutput().getType());
    }
    /// The number of partials S (dimension 0).
    int64_t getSplits() { return getPartialOutputType().getDimSize(0); }
  }];
}

#endif // ATTNOPT_DIALECT_ATTN_IR_ATTNOPS_TD
