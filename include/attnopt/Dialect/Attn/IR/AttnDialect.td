//===- AttnDialect.td - attn dialect definition ------------*- tablegen -*-===//
//
// The `attn` dialect: attention as one op, from which the compiler derives
// the unfused reference, the online-softmax tiled form and the GPU kernels.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_DIALECT_ATTN_IR_ATTNDIALECT_TD
#define ATTNOPT_DIALECT_ATTN_IR_ATTNDIALECT_TD

include "mlir/IR/OpBase.td"

def Attn_Dialect : Dialect {
  let name = "attn";
  let summary = "Scaled dot-product attention, forward and backward";
  let description = [{
    The `attn` dialect represents scaled dot-product attention (with masks,
    causal and sliding-window restrictions, softcapping, dropout, GQA/MQA and
    the row log-sum-exp) as a single operation. Keeping attention whole lets
    the compiler choose how to evaluate it: the unfused reference
    decomposition (`attn-decompose`) materializes the score matrix and is the
    semantic ground truth; later stages tile it with online softmax and map it
    onto the GPU.

    The exact semantics, including the dropout random-number function, are
    defined in `docs/semantics.md`.
  }];
  let cppNamespace = "::mlir::attn";
  let useDefaultAttributePrinterParser = 1;
  // The discardable `attn.*` attributes (kernel configurations written by
  // users and passes): a misspelt or mistyped one is an error, not ignored.
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

class Attn_Op<string mnemonic, list<Trait> traits = []>
    : Op<Attn_Dialect, mnemonic, traits>;

#endif // ATTNOPT_DIALECT_ATTN_IR_ATTNDIALECT_TD
