//===- AttnEnums.td - attn enums and attributes ------------*- tablegen -*-===//

#ifndef ATTNOPT_DIALECT_ATTN_IR_ATTNENUMS_TD
#define ATTNOPT_DIALECT_ATTN_IR_ATTNENUMS_TD

include "attnopt/Dialect/Attn/IR/AttnDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/AttrTypeBase.td"

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

def Attn_TileConfigAttr : AttrDef<Attn_Dialect, "TileConfig"> {
  let mnemonic = "tiles";
  let summary = "Tile sizes chosen for one attention op";
  let description = [{
    `block_q` query rows (Br) per thread block, `block_kv` key/value rows (Bc)
    per inner-loop step, `stages` key/value tiles buffered in shared memory,
    and `warps` per thread block. Attached to `attn.attention` as the
    discardable attribute `attn.tiles` by `attn-select-tiles`, read by
    `attn-tile` and the GPU lowering.

    ```mlir
    #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 4>
    ```
  }];
  let parameters = (ins "int64_t":$block_q, "int64_t":$block_kv,
                        "int64_t":$stages, "int64_t":$warps);
  let assemblyFormat = [{
    `<` `block_q` `=` $block_q `,` `block_kv` `=` $block_kv `,`
        `stages` `=` $stages `,` `warps` `=` $warps `>`
  }];
  let genVerifyDecl = 1;
}

#endif // ATTNOPT_DIALECT_ATTN_IR_ATTNENUMS_TD
