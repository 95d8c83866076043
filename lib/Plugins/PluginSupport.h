//===- PluginSupport.h - what the attn mlir-opt plugins register -*- C++ -*-===//
//
// The two plugins are thin MODULEs around one shared library,
// libAttnOptPluginSupport.so, that holds the dialect, the passes and the
// pipelines once. Had each plugin linked the static AttnOpt libraries, both
// would carry their own copy of attn's TypeIDs and pass registrations, and
// ops registered by the dialect plugin would not be the ones the pass plugin
// matches.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNOPT_PLUGINS_PLUGINSUPPORT_H
#define ATTNOPT_PLUGINS_PLUGINSUPPORT_H

namespace mlir {
class DialectRegistry;
namespace attn {

/// Inserts the attn dialect into `registry`.
void registerAttnPluginDialects(DialectRegistry &registry);

/// Registers every attn pass and pipeline; does nothing the second time.
void registerAttnPluginPasses();

} // namespace attn
} // namespace mlir

#endif // ATTNOPT_PLUGINS_PLUGINSUPPORT_H
