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

def Attn_KernelCudaCore : I32EnumAttrCase<"cuda_core", 0>;
def Attn_KernelMmaSync : I32EnumAttrCase<"mma_sync", 1>;
def Attn_KernelWgmma : I32EnumAttrCase<"wgmma", 2>;

def Attn_KernelFamily : I32EnumAttr<"KernelFamily",
    "GPU forward kernel family",
    [Attn_KernelCudaCore, Attn_KernelMmaSync, Attn_KernelWgmma]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::attn";
}

def Attn_LoadsCpAsync : I32EnumAttrCase<"cp_async", 0>;
def Attn_LoadsTma : I32EnumAttrCase<"tma", 1>;

def Attn_TileLoads : I32EnumAttr<"TileLoads",
    "how a GPU kernel copies its tiles from global to shared memory",
    [Attn_LoadsCpAsync, Attn_LoadsTma]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::attn";
}

def Attn_ScheduleGrid : I32EnumAttrCase<"grid", 0>;
def Attn_SchedulePersistent : I32EnumAttrCase<"persistent", 1>;

def Attn_TileSchedule : I32EnumAttr<"TileSchedule",
    "how a GPU kernel's blocks take their tiles",
    [Attn_ScheduleGrid, Attn_SchedulePersistent]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::attn";
}

// The split-KV group's chunk count: a number, or `?` where it is decided at
// launch (stored as ShapedType::kDynamic).
def Attn_SplitCountParameter
    : OptionalParameter<"std::optional<int64_t>",
                        "key-range chunks, or ? (decided at launch)"> {
  let parser = [{ parseSplitCount($_parser) }];
  let printer = [{ printSplitCount($_printer, $_self) }];
}

def Attn_TileConfigAttr : AttrDef<Attn_Dialect, "TileConfig"> {
  let mnemonic = "tiles";
  let summary = "Tile sizes (and the GPU kernel) chosen for one attention op";
  let description = [{
    `block_q` query rows (Br) per thread block, `block_kv` key/value rows (Bc)
    per inner-loop step, `stages` key/value tiles buffered in shared memory,
    and `warps` per thread block (the warps that own query rows; the wgmma
    kernel adds a producer warpgroup). Attached to `attn.attention` as the
    discardable attribute `attn.tiles`.

    Without `kernel` it is a choice of `attn-select-tiles` (the IO model,
    docs/io-model.md) for the tiled loops of `attn-tile`; the GPU route takes
    only its `block_q` as a hint for the mma.sync and CUDA-core kernels.

    With `kernel` it is a GPU kernel configuration, written by the GPU kernel
    chooser (`attn-select-kernels`, `attn-to-gpu`, `attn-compile`) and
    honoured exactly by every GPU route: `cuda_core`, `mma_sync` (mma.sync
    m16n8k16 with ldmatrix, sm_80 and later) or `wgmma` (warp-specialized,
    sm_90a). `splits = N` (wgmma or mma_sync) asks for the split-KV forward
    group of N key-range chunks (its first stage on that kernel), `splits = ?` for the group with the chunk
    count decided at launch (docs/kernel-manifest.md). `loads = tma`
    (wgmma only) has the producer load Q, K and V with the Tensor Memory
    Accelerator (`cp.async.bulk.tensor`, tensor maps built by the runtime)
    instead of `cp.async` (`loads = cp_async`, the meaning of an absent
    field). `schedule = persistent` (wgmma with `loads = tma`, static
    sizes) launches one block per SM (attn-compile's `--sm-count`), each
    looping over (query block, head, batch) tiles, its producer loading the
    next tile's Q (two Q buffers) and K/V while the consumers finish the
    current one; `schedule = grid` (the absent field's meaning) launches a
    block per tile. A configuration the kernel cannot take is an error at
    the op that says why.

    ```mlir
    #attn.tiles<block_q = 128, block_kv = 64, stages = 2, warps = 4>
    #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8,
                kernel = wgmma>
    #attn.tiles<block_q = 128, block_kv = 128, stages = 2, warps = 8,
                kernel = wgmma, loads = tma>
    #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4,
                kernel = mma_sync, splits = 16>
    #attn.tiles<block_q = 64, block_kv = 64, stages = 2, warps = 4,
                kernel = wgmma, splits = 4>
    ```
  }];
  let parameters = (ins "int64_t":$block_q, "int64_t":$block_kv,
                        "int64_t":$stages, "int64_t":$warps,
                        OptionalParameter<"std::optional<KernelFamily>">:$kernel,
                        Attn_SplitCountParameter:$splits,
                        OptionalParameter<"std::optional<TileLoads>">:$loads,
                        OptionalParameter<"std::optional<TileSchedule>">:$schedule);
  // The same text as the positional form (block_q = .., block_kv = ..,
  // stages = .., warps = ..) with the optional fields after them.
  let assemblyFormat = "`<` struct(params) `>`";
  let builders = [
    AttrBuilder<(ins "int64_t":$block_q, "int64_t":$block_kv,
                     "int64_t":$stages, "int64_t":$warps), [{
      return $_get($_ctxt, block_q, block_kv, stages, warps, std::nullopt,
                   std::nullopt, std::nullopt, std::nullopt);
    }]>
  ];
  let genVerifyDecl = 1;
}

def Attn_GradDqSeparate : I32EnumAttrCase<"separate", 0>;
def Attn_GradDqAtomic : I32EnumAttrCase<"atomic", 1>;

def Attn_GradDq : I32EnumAttr<"GradDq",
    "how a GPU backward accumulates dQ",
    [Attn_GradDqSeparate, Attn_GradDqAtomic]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::attn";
}

def Attn_SplitBlocks : I32EnumAttrCase<"blocks", 0>;
def Attn_SplitWarpgroups : I32EnumAttrCase<"warpgroups", 1>;

def Attn_KeyBlockSplit : I32EnumAttr<"KeyBlockSplit",
    "how a backward key block's dK and dV are shared where one warpgroup's "
    "registers cannot hold both",
    [Attn_SplitBlocks, Attn_SplitWarpgroups]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::attn";
}

def Attn_GradKernelConfigAttr : AttrDef<Attn_Dialect, "GradKernelConfig"> {
  let mnemonic = "grad_kernels";
  let summary = "The GPU backward kernels chosen for one attention gradient op";
  let description = [{
    The backward kernel group of an `attn.attention_grad` or
    `attn.varlen_attention_grad`, attached as the discardable attribute
    `attn.grad_kernels`: written by the backward kernel chooser
    (`attn-select-kernels`, `attn-to-gpu`, `attn-compile`) and honoured
    exactly by every GPU route, so that a user can read the choice and
    override it per op (docs/passes.md, docs/kernel-manifest.md "Backward
    kernels").

    `kernel` is the family of the key-block kernel (the one that computes dK
    and dV): `cuda_core` (the CUDA-core dkdv and dq kernels; no other
    field), `mma_sync` (mma.sync m16n8k16 with ldmatrix) or `wgmma`
    (sm_90a). The tensor-core kernels also name `key_block`, the keys per
    block of the key-block kernel (64 or 128), and `dq`: `separate` (a dq
    kernel over query blocks recomputes S and dP; no atomics) or `atomic`
    (the key-block kernel adds dS K to an f32 accumulator, which a last
    kernel converts; not for `deterministic` ops). `loads = tma` (wgmma
    only) has a producer warpgroup load the key-block kernel's tiles with
    the Tensor Memory Accelerator; `cp_async`, or no `loads`, has every
    thread copy them. `split` (D + Dv > 256, where one warpgroup's
    registers cannot hold a key block's dK and dV): `blocks` (the
    default, no field) has two blocks per key block, one accumulating dV
    and one dK, each recomputing Sᵀ; `warpgroups` (wgmma with `loads = tma`
    and `key_block = 64`) has the two consumer warpgroups of one block split
    the head dims of dK, dV and dQ, sharing Pᵀ and dSᵀ through shared
    memory (FlashAttention-3's scheme: no recomputation). `query_stages`
    (`loads = tma` or `kernel = mma_sync`): the shared-memory stages of the
    streamed tiles, 2 (the default, no field) or 1. With `loads = tma`, the
    Q and dO tiles the producer fills ahead of the consumers; 1 leaves room
    for the dQ staging tile of the bulk reductions where two stages would
    not (D = 256 with the head split). With `mma_sync`, the cp.async
    buffers of Q and dO in the key-block kernel and of K and V in the dq
    kernel; 1 where two do not fit the chip (sm_80 past D = Dv = 208,
    sm_86 / sm_89 past 112), each step then waiting for its copies. A configuration
    the op's kernels cannot take is an error at the op that names the one
    they take.

    ```mlir
    #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>
    #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups>
    #attn.grad_kernels<kernel = wgmma, key_block = 64, dq = atomic, loads = tma, split = warpgroups, query_stages = 1>
    #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate>
    #attn.grad_kernels<kernel = mma_sync, key_block = 64, dq = separate, query_stages = 1>
    #attn.grad_kernels<kernel = cuda_core>
    ```
  }];
  let parameters = (ins "KernelFamily":$kernel,
                        OptionalParameter<"std::optional<int64_t>">:$key_block,
                        OptionalParameter<"std::optional<GradDq>">:$dq,
                        OptionalParameter<"std::optional<TileLoads>">:$loads,
                        OptionalParameter<"std::optional<KeyBlockSplit>">:$split,
                        OptionalParameter<"std::optional<int64_t>">:$query_stages);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // ATTNOPT_DIALECT_ATTN_IR_ATTNENUMS_TD
