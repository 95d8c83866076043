//===- SelectTiles.cpp - attn-select-tiles pass ---------------------------===//

#include "attnopt/Dialect/Attn/Analysis/TileSelection.h"
#include "attnopt/Dialect/Attn/Transforms/Passes.h"
#include "attnopt/Dialect/Attn/Utils/SizeLimits.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNSELECTTILESPASS
#include "attnopt/Dialect/Attn/Transforms/Passes.h.inc"

namespace {

void emitReport(AttentionOp op, const TargetDescription &target,
                const TileChoice &t, const IOReport &r) {
  std::string msg;
  llvm::raw_string_ostream diag(msg);
  diag << "attn-select-tiles " << target.chip << ": block_q=" << t.blockQ
       << " block_kv=" << t.blockKV << " stages=" << t.stages
       << " warps=" << t.warps << " (FlashAttention rule: Br=" << t.ruleBlockQ
       << " Bc=" << t.ruleBlockKV << "); shared memory " << t.sharedMemoryBytes
       << " B of " << target.sharedMemoryBytes << ", ~" << t.registersPerThread
       << " registers/thread\n";
  printIOReport(diag, r);
  op.emitRemark(msg);
}

struct AttnSelectTilesPass final
    : impl::AttnSelectTilesPassBase<AttnSelectTilesPass> {
  using Base::Base;

  /// The chip is checked once, before any operation: a bad value is the
  /// command line's error, not the IR's.
  LogicalResult initialize(MLIRContext *context) override {
    std::optional<TargetDescription> found = TargetDescription::get(chip);
    if (!found)
      return emitError(UnknownLoc::get(context),
                       "attn-select-tiles: unknown chip '")
             << chip << "' (expected sm_80, sm_86, sm_89, sm_90 or sm_90a)";
    target = *found;
    return success();
  }

  void runOnOperation() override {
    getOperation()->walk([&](AttentionOp op) {
      // A GPU kernel configuration (attn-select-kernels, or a user's) is
      // kept: attn-tile takes its tiles as they are.
      auto chosen = op->getAttrOfType<TileConfigAttr>("attn.tiles");
      if (chosen && chosen.getKernel())
        return;
      FailureOr<AttentionShape> shape = AttentionShape::get(op);
      if (failed(shape) || failed(checkSizeLimits(op, "attn-select-tiles"))) {
        signalPassFailure();
        return;
      }
      TileChoice tiles = selectTiles(*shape, target);
      op->setAttr("attn.tiles",
                  TileConfigAttr::get(&getContext(), tiles.blockQ,
                                      tiles.blockKV, tiles.stages,
                                      tiles.warps));
      if (!report)
        return;
      if (op.getQueryType().hasStaticShape() &&
          op.getKeyType().hasStaticShape())
        emitReport(op, target, tiles, analyzeIO(*shape, tiles));
      else
        op.emitRemark("attn-select-tiles: no IO report for dynamic shapes");
    });
  }

private:
  TargetDescription target;
};

} // namespace
} // namespace mlir::attn
