//===- AttnInterfaces.td - attn op interfaces ---------------*- tablegen -*-===//
//
// What the forward and the backward op share: the attention inputs and the
// attributes that define the scores (scale, softcap, mask, causal, window)
// and the dropout stream. Score emitters, block-skipping bounds, the CPU
// runner and the GPU kernel builders read them through this interface, so a
// rule is written once for both directions.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_DIALECT_ATTN_IR_ATTNINTERFACES_TD
#define ATTNOPT_DIALECT_ATTN_IR_ATTNINTERFACES_TD

include "mlir/IR/OpBase.td"

def Attn_AttentionOpInterface : OpInterface<"AttentionOpInterface"> {
  let cppNamespace = "::mlir::attn";
  let description = [{
    An op whose semantics include the attention scores
    `s = mask(softcap(scale * Q·Kᵀ))` and the dropout keep mask of
    docs/semantics.md: `attn.attention`, `attn.attention_grad` and their
    packed variable-length forms `attn.varlen_attention` and
    `attn.varlen_attention_grad` (tensors `[tokens, heads, dim]`, see
    isPacked(); those have no mask operands), and `attn.paged_attention`
    (keys and values in a paged cache, see isPaged(); no mask or dropout).
  }];
  let methods = [
    InterfaceMethod<"The query, [B, Hq, Lq, D] (packed: [Tq, Hq, D]).",
                    "::mlir::Value", "getQuery">,
    InterfaceMethod<"The key, [B, Hkv, Lk, D] (packed: [Tk, Hkv, D]).",
                    "::mlir::Value", "getKey">,
    InterfaceMethod<"The value, [B, Hkv, Lk, Dv] (packed: [Tk, Hkv, Dv]).",
                    "::mlir::Value", "getValue">,
    InterfaceMethod<"The optional boolean or additive mask.", "::mlir::Value",
                    "getMask">,
    InterfaceMethod<"The explicit i1 dropout keep mask, or null.",
                    "::mlir::Value", "getDropoutMask">,
    InterfaceMethod<"The dropout seed, or null.", "::mlir::Value", "getSeed">,
    InterfaceMethod<"The dropout offset, or null.", "::mlir::Value",
                    "getOffset">,
    InterfaceMethod<"The explicit scale, or null.", "::mlir::FloatAttr",
                    "getScaleAttr">,
    InterfaceMethod<"The causal mode.", "::mlir::attn::CausalMode",
                    "getCausal">,
    InterfaceMethod<"The [left, right] window, if any.",
                    "::std::optional<::llvm::ArrayRef<int64_t>>", "getWindow">,
    InterfaceMethod<"The softcap, or null.", "::mlir::FloatAttr",
                    "getSoftcapAttr">,
    InterfaceMethod<[{
      Whether the softcap's tanh may be approximated (`softcap_approx`:
      tanh.approx.f32 on the GPU, docs/semantics.md section 4).
    }], "bool", "getSoftcapApprox">,
    InterfaceMethod<"The dropout probability.", "::llvm::APFloat",
                    "getDropoutP">,
    InterfaceMethod<[{
      The `[B, max_pages]` i32 page table of an op whose keys and values are
      a paged cache (attn.paged_attention), or null.
    }], "::mlir::Value", "getBlockTable", (ins), [{}],
    /*defaultImplementation=*/[{ return {}; }]>,
  ];

  let extraSharedClassDeclaration = [{
    /// The scale actually applied to Q·Kᵀ: the attribute, or 1/sqrt(D).
    /// Requires a static head dim when the attribute is absent (verified).
    float getEffectiveScale() {
      if (::mlir::FloatAttr scale = $_op.getScaleAttr())
        return scale.getValue().convertToFloat();
      int64_t d = getHeadDimSize();
      return static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
    }
    /// Whether the op works on a packed variable-length batch: tensors of
    /// [tokens, heads, dim] whose sequences the i32 `cu_seqlens_q` /
    /// `cu_seqlens_k` offsets delimit (docs/semantics.md, section 14).
    bool isPacked() { return getQueryType().getRank() == 3; }
    /// Whether keys and values are a paged cache ([P, page_size, Hkv, X])
    /// read through getBlockTable() (docs/semantics.md, section 15); each
    /// sequence has its own run-time key length.
    bool isPaged() { return static_cast<bool>($_op.getBlockTable()); }
    /// The key/value head count Hkv.
    int64_t getKeyHeads() {
      return getKeyType().getDimSize(isPaged() ? 2 : 1);
    }
    /// The query/key head dim D (the query's last dimension).
    int64_t getHeadDimSize() {
      return getQueryType().getDimSize(getQueryType().getRank() - 1);
    }
    /// The value head dim Dv (the value's last dimension).
    int64_t getValueDimSize() {
      return getValueType().getDimSize(getValueType().getRank() - 1);
    }
    /// The query length Lq every sequence has: dimension 2 of the query,
    /// ShapedType::kDynamic when it is a run-time one or the batch is packed
    /// (each sequence its own length).
    int64_t getUniformQueryLen() {
      return isPacked() ? ::mlir::ShapedType::kDynamic
                        : getQueryType().getDimSize(2);
    }
    /// The key length Lk every sequence has, as getUniformQueryLen.
    int64_t getUniformKeyLen() {
      return isPacked() || isPaged() ? ::mlir::ShapedType::kDynamic
                                     : getKeyType().getDimSize(2);
    }
    /// A static bound on every sequence's query length: Lq, or for a packed
    /// batch the total query tokens; ShapedType::kDynamic if unknown.
    int64_t getQueryLenBound() {
      return getQueryType().getDimSize(isPacked() ? 0 : 2);
    }
    /// A static bound on every sequence's key length, as getQueryLenBound
    /// (a paged cache: max_pages * page_size).
    int64_t getKeyLenBound() {
      if (isPaged()) {
        int64_t pages = ::llvm::cast<::mlir::ShapedType>(
            $_op.getBlockTable().getType()).getDimSize(1);
        int64_t pageSize = getKeyType().getDimSize(1);
        if (::mlir::ShapedType::isDynamic(pages) ||
            ::mlir::ShapedType::isDynamic(pageSize))
          return ::mlir::ShapedType::kDynamic;
        return pages * pageSize;
      }
      return getKeyType().getDimSize(isPacked() ? 0 : 2);
    }
    /// Query heads per key/value head (Hq / Hkv); requires static heads.
    int64_t getGroupSize() {
      return $_op.getQueryType().getDimSize(1) / getKeyHeads();
    }
    ::mlir::RankedTensorType getQueryType() {
      return ::llvm::cast<::mlir::RankedTensorType>(
          $_op.getQuery().getType());
    }
    ::mlir::RankedTensorType getKeyType() {
      return ::llvm::cast<::mlir::RankedTensorType>($_op.getKey().getType());
    }
    ::mlir::RankedTensorType getValueType() {
      return ::llvm::cast<::mlir::RankedTensorType>(
          $_op.getValue().getType());
    }
    /// Whether the op drops probabilities (dropout_p > 0).
    bool hasDropout() {
      return $_op.getDropoutP().convertToFloat() > 0.0f;
    }
    /// Whether the keep mask is the Philox stream of rng(seed, offset)
    /// (dropout without an explicit dropout_mask).
    bool hasPhiloxDropout() {
      return hasDropout() && !$_op.getDropoutMask();
    }
  }];
}

#endif // ATTNOPT_DIALECT_ATTN_IR_ATTNINTERFACES_TD
