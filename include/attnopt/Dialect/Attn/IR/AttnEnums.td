//===- AttnEnums.td - attn enums and attributes ------------*- tablegen -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_IR_ATTNENUMS_TD
#define ATTNOPT_DIALECT_ATTN_IR_ATTNENUMS_TD

include "attnopt/Dialect/Attn/IR/AttnDialect.td"
include "mlir/IR/EnumAttr.td"

def Attn_CausalNone : I32EnumAttrCase<"none", 0>;
def Attn_CausalTopLeft : I32EnumAttrCase<"top_left", 1>;
def Attn_CausalBottomRight : I32EnumAttrCase<"bottom_right", 2>;

def Attn_CausalMode : I32EnumAttr<"CausalMode",
    "causal masking mode",
    [Attn_CausalNone, Attn_CausalTopLeft, Attn_CausalBottomRight]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::attn";
}

def Attn_CausalModeAttr : EnumAttr<Attn_Dialect, Attn_CausalMode, "causal"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "causal masking mode: none, top_left or bottom_right";
}

#endif // ATTNOPT_DIALECT_ATTN_IR_ATTNENUMS_TD
