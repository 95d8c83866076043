//===- RaiseCheck.cpp - translation validation of the raising -------------===//

#include "attnopt/Execution/RaiseCheck.h"
#include "CpuRunnerSupport.h"
#include "HostTensors.h"
#include "attnopt/Dialect/Attn/IR/AttnOps.h"
#include "attnopt/Dialect/Attn/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The lowerings every variant gets first, so that TOSA functions bufferize.
constexpr llvm::StringLiteral kFrontEndLowering =
    "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,"
    "tosa-to-arith,convert-elementwise-to-linalg)";

/// Runs `pipeline` (textual; `builtin.module(...)` or the passes to nest in
/// it) on `module`.
LogicalResult runPipeline(ModuleOp module, StringRef pipeline, StringRef what) {
  std::string text = pipeline.str();
  if (!StringRef(text).trim().starts_with("builtin.module("))
    text = "builtin.module(" + text + ")";
  std::string errors;
  llvm::raw_string_ostream errStream(errors);
  FailureOr<OpPassManager> parsed = parsePassPipeline(text, errStream);
  if (failed(parsed))
    return module.emitError("attn-raise-check: invalid ")
           << what << " '" << pipeline << "': " << errors;
  PassManager pm(module.getContext());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  return pm.run(module);
}

/// `t` with its float element type (or itself, if a float) made f64.
Type promoted(Type t) {
  if (isa<FloatType>(t))
    return Float64Type::get(t.getContext());
  if (auto shaped = dyn_cast<ShapedType>(t))
    if (isa<FloatType>(shaped.getElementType()))
      return shaped.clone(Float64Type::get(t.getContext()));
  return t;
}

Attribute promotedAttr(Attribute a) {
  MLIRContext *ctx = a.getContext();
  // A blob (torch-mlir's module buffers) is read as the dense constant it
  // holds.
  if (std::optional<DenseElementsAttr> dense = denseElementsOfResource(a))
    a = *dense;
  if (auto f = dyn_cast<FloatAttr>(a))
    return FloatAttr::get(Float64Type::get(ctx), f.getValueAsDouble());
  if (auto dense = dyn_cast<DenseFPElementsAttr>(a)) {
    auto type = cast<ShapedType>(promoted(dense.getType()));
    SmallVector<double> values;
    for (APFloat v : dense.getValues<APFloat>())
      values.push_back(v.convertToDouble());
    if (dense.isSplat())
      return DenseElementsAttr::get(type, values.front());
    return DenseElementsAttr::get(type, ArrayRef<double>(values));
  }
  return a;
}

/// Rewrites `func` to compute in f64: every float type becomes f64, float
/// constants are widened, and casts between floats (now f64 to f64)
/// disappear. This is the chain's own formula evaluated in float64.
LogicalResult promoteToF64(func::FuncOp func) {
  SmallVector<Operation *> casts;
  func.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(promoted(arg.getType()));
    for (OpResult r : op->getResults())
      r.setType(promoted(r.getType()));
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      c.setValueAttr(cast<TypedAttr>(promotedAttr(c.getValue())));
    if (isa<arith::ExtFOp, arith::TruncFOp>(op))
      casts.push_back(op);
  });
  for (Operation *op : casts) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
  }
  SmallVector<Type> inputs, results;
  for (Type t : func.getArgumentTypes())
    inputs.push_back(promoted(t));
  for (Type t : func.getResultTypes())
    results.push_back(promoted(t));
  func.setFunctionType(FunctionType::get(func.getContext(), inputs, results));
  if (failed(verify(func)))
    return func.emitError("attn-raise-check: the chain cannot be evaluated "
                          "in float64 (the promoted function does not "
                          "verify)");
  return success();
}

/// A copy of `module` that keeps, of the public functions, only `name`.
OwningOpRef<ModuleOp> isolate(ModuleOp module, StringRef name) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  for (auto f : llvm::make_early_inc_range(copy->getOps<func::FuncOp>()))
    if (f.isPublic() && f.getName() != name)
      f.erase();
  return copy;
}

/// The prefix of the functions defined in a checked module, so that a
/// user's function named after a C library symbol the lowering calls
/// (`exp`, `memset`, `malloc`, ...) does not capture those calls.
constexpr StringLiteral kDefinitionPrefix = "attn_raise_check_";

/// Adds `func @attn_kernel(args as memrefs..., results as memrefs...)`
/// calling `name`, after giving every function defined in `module` the
/// prefix kDefinitionPrefix.
void addEntry(ModuleOp module, StringRef name) {
  SymbolTable symbols(module);
  for (auto f : llvm::to_vector(module.getOps<func::FuncOp>()))
    if (!f.isDeclaration())
      (void)symbols.rename(f, (kDefinitionPrefix + f.getName()).str());
  auto callee =
      module.lookupSymbol<func::FuncOp>((kDefinitionPrefix + name).str());
  callee.setPrivate();
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  Location loc = callee.getLoc();
  SmallVector<Type> argTypes;
  auto toMemRef = [](Type t) {
    auto tensor = cast<RankedTensorType>(t);
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  };
  for (Type t : callee.getArgumentTypes())
    argTypes.push_back(toMemRef(t));
  for (Type t : callee.getResultTypes())
    argTypes.push_back(toMemRef(t));
  auto entry = func::FuncOp::create(b, loc, kCpuKernelName,
                                    b.getFunctionType(argTypes, {}));
  entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
  Block *body = entry.addEntryBlock();
  b.setInsertionPointToStart(body);
  SmallVector<Value> args;
  for (auto [i, t] : llvm::enumerate(callee.getArgumentTypes()))
    args.push_back(bufferization::ToTensorOp::create(
                       b, loc, t, body->getArgument(i), /*restrict=*/true)
                       .getResult());
  auto call = func::CallOp::create(b, loc, callee.getSymName(),
                                   callee.getResultTypes(), args);
  for (auto [i, r] : llvm::enumerate(call.getResults())) {
    auto mat = bufferization::MaterializeInDestinationOp::create(
        b, loc, TypeRange{}, r, body->getArgument(args.size() + i));
    mat.setRestrict(true);
    mat.setWritable(true);
  }
  func::ReturnOp::create(b, loc);
}

FailureOr<HostElementType> hostTypeOf(func::FuncOp f, Type t) {
  auto elt = cast<ShapedType>(t).getElementType();
  if (elt.isF64())
    return HostElementType::F64;
  if (elt.isInteger(8))
    return HostElementType::I8;
  if (elt.isInteger(32))
    return HostElementType::I32;
  if (elt.isInteger(64))
    return HostElementType::I64;
  return hostType(f, elt);
}

/// Whether `f` can be checked: a definition whose arguments and results are
/// ranked tensors.
bool isCheckable(func::FuncOp f) {
  if (f.isDeclaration() || !f.isPublic())
    return false;
  auto ranked = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::all_of(f.getArgumentTypes(), ranked) &&
         llvm::all_of(f.getResultTypes(), ranked) && f.getNumResults() > 0;
}

bool hasStaticShapes(FunctionType type) {
  auto isStatic = [](Type t) { return cast<ShapedType>(t).hasStaticShape(); };
  return llvm::all_of(type.getInputs(), isStatic) &&
         llvm::all_of(type.getResults(), isStatic);
}

/// `types` given the shapes of the comma-separated list `text`
/// (`2x4x16x32,...`); each must have the rank of its type and its static
/// sizes. An empty list keeps `types`, if they are static.
FailureOr<SmallVector<Type>> shapedAs(func::FuncOp f, TypeRange types,
                                      StringRef text, StringRef what) {
  SmallVector<StringRef> items;
  if (!text.trim().empty())
    text.split(items, ',');
  if (items.empty()) {
    if (llvm::all_of(
            types, [](Type t) { return cast<ShapedType>(t).hasStaticShape(); }))
      return SmallVector<Type>(types.begin(), types.end());
    return f.emitError("attn-raise-check: --shapes gives no ")
           << what << " shapes, and @" << f.getName() << "'s are dynamic";
  }
  if (items.size() != types.size())
    return f.emitError("attn-raise-check: --shapes gives ")
           << items.size() << " " << what << " shapes, @" << f.getName()
           << " has " << types.size();
  SmallVector<Type> shaped;
  for (auto [i, item] : llvm::enumerate(items)) {
    auto type = cast<RankedTensorType>(types[i]);
    // A 0-d tensor is written as an empty item.
    SmallVector<StringRef> dims;
    if (!item.trim().empty())
      item.trim().split(dims, 'x');
    SmallVector<int64_t> shape;
    for (StringRef d : dims) {
      int64_t size;
      if (d.trim().getAsInteger(10, size) || size < 0)
        return f.emitError("attn-raise-check: --shapes: '")
               << item << "' is not a shape (sizes joined by 'x')";
      shape.push_back(size);
    }
    if (static_cast<int64_t>(shape.size()) != type.getRank())
      return f.emitError("attn-raise-check: --shapes: ")
             << what << " " << i << " of @" << f.getName() << " has rank "
             << type.getRank() << ", '" << item << "' has " << shape.size();
    for (auto [d, size] : llvm::enumerate(shape))
      if (!type.isDynamicDim(d) && type.getDimSize(d) != size)
        return f.emitError("attn-raise-check: --shapes: ")
               << what << " " << i << " of @" << f.getName() << " is " << type
               << ", '" << item << "' differs in dim " << d;
    shaped.push_back(type.clone(shape));
  }
  return shaped;
}

/// The function type of `f` at the shapes `text` gives
/// (`args[->results]`).
FailureOr<FunctionType> specializedType(func::FuncOp f, StringRef text) {
  auto [args, results] = text.split("->");
  FailureOr<SmallVector<Type>> inputs =
      shapedAs(f, f.getArgumentTypes(), args, "argument");
  if (failed(inputs))
    return failure();
  FailureOr<SmallVector<Type>> outputs =
      shapedAs(f, f.getResultTypes(), results, "result");
  if (failed(outputs))
    return failure();
  return FunctionType::get(f.getContext(), *inputs, *outputs);
}

/// Gives function `name` of `module` the static type `type`: its arguments
/// are cast to the types the body was written for, and its results to
/// `type`'s.
void specialize(ModuleOp module, StringRef name, FunctionType type) {
  auto f = module.lookupSymbol<func::FuncOp>(name);
  if (f.getFunctionType() == type)
    return;
  Block &entry = f.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  for (auto [arg, t] : llvm::zip(entry.getArguments(), type.getInputs())) {
    Type written = arg.getType();
    if (written == t)
      continue;
    arg.setType(t);
    auto cast = tensor::CastOp::create(b, f.getLoc(), written, arg);
    arg.replaceAllUsesExcept(cast, cast);
  }
  f.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    for (auto [operand, t] : llvm::zip(ret->getOpOperands(), type.getResults()))
      if (operand.get().getType() != t)
        operand.set(tensor::CastOp::create(b, ret.getLoc(), t, operand.get()));
  });
  f.setFunctionType(type);
}

/// One JIT-compiled variant and its buffers.
struct Variant {
  std::unique_ptr<ExecutionEngine> engine;
  std::vector<HostTensor> args, results;

  LogicalResult run(func::FuncOp f) {
    SmallVector<void *> descs, packed;
    for (HostTensor &t : args)
      descs.push_back(t.descriptor());
    for (HostTensor &t : results) {
      t.poison();
      descs.push_back(t.descriptor());
    }
    for (void *&d : descs)
      packed.push_back(&d);
    if (llvm::Error err = engine->invokePacked(
            ("_mlir_ciface_" + kCpuKernelName).str(), packed))
      return f.emitError("attn-raise-check: invocation failed: ")
             << llvm::toString(std::move(err));
    return success();
  }
};

/// Function `name` of `module` and every function it calls, directly or
/// not (a front end's private helpers); fails at `module` where a callee
/// has no body.
FailureOr<SmallVector<func::FuncOp>> callTree(ModuleOp module, StringRef name) {
  SmallVector<func::FuncOp> tree;
  SmallVector<StringRef> worklist = {name};
  llvm::StringSet<> seen;
  while (!worklist.empty()) {
    StringRef next = worklist.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    auto func = module.lookupSymbol<func::FuncOp>(next);
    if (!func || func.isExternal())
      return module.emitError("attn-raise-check: '")
             << next
             << "' is called but has no body in the module (the check runs "
                "every function of the call tree)";
    func.walk([&](func::CallOp call) { worklist.push_back(call.getCallee()); });
    tree.push_back(func);
  }
  return tree;
}

/// Promotes the call tree of `name` to f64: the reference evaluates it
/// whole in float64, and the call sites' types must match their callees'.
LogicalResult promoteCallTreeToF64(ModuleOp module, StringRef name) {
  FailureOr<SmallVector<func::FuncOp>> tree = callTree(module, name);
  if (failed(tree))
    return failure();
  for (func::FuncOp f : *tree)
    if (failed(promoteToF64(f)))
      return failure();
  return success();
}

FailureOr<Variant> compileVariant(func::FuncOp original, FunctionType type,
                                  ModuleOp module, StringRef lowering,
                                  bool f64) {
  StringRef name = original.getName();
  addEntry(module, name);
  CpuRunOptions cpu;
  cpu.lowering = lowering.str();
  FailureOr<std::unique_ptr<ExecutionEngine>> engine =
      compileForCpu(original, module, cpu);
  if (failed(engine))
    return failure();
  Variant v;
  v.engine = std::move(*engine);
  auto add = [&](std::vector<HostTensor> &list, Type t) -> LogicalResult {
    FailureOr<HostElementType> ht = hostTypeOf(original, t);
    if (failed(ht))
      return failure();
    if (f64 && isa<FloatType>(cast<ShapedType>(t).getElementType()))
      ht = HostElementType::F64;
    ArrayRef<int64_t> shape = cast<ShapedType>(t).getShape();
    list.emplace_back(*ht, std::vector<int64_t>(shape.begin(), shape.end()));
    return success();
  };
  for (Type t : type.getInputs())
    if (failed(add(v.args, t)))
      return failure();
  for (Type t : type.getResults())
    if (failed(add(v.results, t)))
      return failure();
  return v;
}

/// Relative error of `got` against `ref` over the positions where `ref` is
/// a number: max |got - ref| / max |ref|. NaN/inf in `got` there are
/// counted in `bad`; positions where the reference is NaN in `refNaNs`.
double relativeError(const HostTensor &got, const HostTensor &ref, int64_t &bad,
                     int64_t &refNaNs) {
  double maxDiff = 0.0, maxRef = 0.0;
  for (int64_t i = 0; i < got.numElements(); ++i) {
    double r = ref.load(i), g = got.load(i);
    if (std::isnan(r)) {
      ++refNaNs;
      continue;
    }
    if (std::isinf(r)) {
      if (g != r)
        ++bad;
      continue;
    }
    if (!std::isfinite(g)) {
      ++bad;
      continue;
    }
    maxDiff = std::max(maxDiff, std::abs(g - r));
    maxRef = std::max(maxRef, std::abs(r));
  }
  return maxRef > 0.0 ? maxDiff / maxRef : maxDiff;
}

double toleranceFor(Type elt) {
  if (elt.isF64())
    return 1e-12;
  return defaultTolerance(elt);
}

/// Checks `f` (at the static shapes `type`, its own where static).
LogicalResult checkFunction(ModuleOp module, func::FuncOp f, FunctionType type,
                            const RaiseCheckOptions &options,
                            llvm::raw_ostream &os) {
  StringRef name = f.getName();
  // The three variants. The raising sees the function as written (with its
  // dynamic sizes); all three then run at `type`.
  OwningOpRef<ModuleOp> chain = isolate(module, name);
  OwningOpRef<ModuleOp> chain64 = isolate(module, name);
  OwningOpRef<ModuleOp> raised = isolate(module, name);
  if (failed(runPipeline(*raised, options.pipeline, "raising pipeline")))
    return f.emitError("attn-raise-check: the raising failed");
  // The ops in the function and the functions it calls.
  FailureOr<SmallVector<func::FuncOp>> raisedTree = callTree(*raised, name);
  if (failed(raisedTree))
    return failure();
  int64_t attnOps = 0;
  for (func::FuncOp g : *raisedTree)
    g.walk([&](AttentionOp) { ++attnOps; });
  for (ModuleOp m : {*chain, *chain64, *raised}) {
    specialize(m, name, type);
    if (failed(runPipeline(m, kFrontEndLowering, "front-end lowering")) ||
        failed(decomposeSoftmaxOps(m)))
      return failure();
  }
  if (failed(promoteCallTreeToF64(*chain64, name)))
    return failure();
  FailureOr<Variant> vChain =
      compileVariant(f, type, *chain, "canonicalize", false);
  FailureOr<Variant> vRef =
      compileVariant(f, type, *chain64, "canonicalize", true);
  FailureOr<Variant> vRaised =
      compileVariant(f, type, *raised, options.lowering, false);
  if (failed(vChain) || failed(vRef) || failed(vRaised))
    return failure();

  os << "@" << name;
  if (type != f.getFunctionType())
    os << " at " << type;
  os << ": " << attnOps << " attn.attention after the raising"
     << (attnOps ? "" : " (nothing raised)") << "\n";
  bool ok = !(options.requireRaised && attnOps == 0);
  for (unsigned run = 0; run < options.runs; ++run) {
    std::mt19937_64 rng(options.seed + run);
    std::uniform_real_distribution<double> value(-2.0, 2.0);
    std::bernoulli_distribution keep(0.8);
    for (auto [i, arg] : llvm::enumerate(type.getInputs())) {
      Type elt = cast<ShapedType>(arg).getElementType();
      HostTensor &ref = vRef->args[i];
      for (int64_t e = 0; e < ref.numElements(); ++e) {
        // i1, i8 and i64 arguments are masks (HF's int64 attention_mask):
        // 0/1; i32 small integers.
        double x = elt.isInteger(1) || elt.isInteger(8) || elt.isInteger(64)
                       ? (keep(rng) ? 1.0 : 0.0)
                   : elt.isInteger(32) ? std::floor(value(rng) * 4.0)
                                       : value(rng);
        x = vChain->args[i].store(e, x);
        vRaised->args[i].store(e, x);
        ref.store(e, x);
      }
    }
    if (failed(vChain->run(f)) || failed(vRef->run(f)) ||
        failed(vRaised->run(f)))
      return failure();
    for (auto [i, result] : llvm::enumerate(type.getResults())) {
      Type elt = cast<ShapedType>(result).getElementType();
      int64_t badRaised = 0, badChain = 0, refNaNs = 0, ignored = 0;
      double errRaised = relativeError(vRaised->results[i], vRef->results[i],
                                       badRaised, refNaNs);
      double errChain = relativeError(vChain->results[i], vRef->results[i],
                                      badChain, ignored);
      double tol = options.tolerance
                       ? *options.tolerance
                       : std::max(toleranceFor(elt), 2.0 * errChain);
      // Where the chain as written is itself non-finite though its float64
      // form is not (an f32 overflow of the user's own formula), the
      // raising is judged against it, as the tolerance is: no more such
      // positions than the chain has.
      bool pass = badRaised <= badChain && errRaised <= tol;
      ok &= pass;
      os << "  run " << run << " result " << i << " " << result << ": raised "
         << llvm::format("%.3g", errRaised) << ", as written "
         << llvm::format("%.3g", errChain)
         << " (max relative error against the chain in float64; tolerance "
         << llvm::format("%.3g", tol) << ")";
      if (badRaised || badChain)
        os << ", " << badRaised << " non-finite where the reference is finite"
           << " (as written " << badChain << ")";
      if (refNaNs)
        os << ", " << refNaNs << " reference NaNs skipped";
      os << (pass ? ": PASS" : ": FAIL") << "\n";
    }
  }
  return success(ok);
}

} // namespace

LogicalResult mlir::attn::checkRaising(ModuleOp module,
                                       const RaiseCheckOptions &options,
                                       llvm::raw_ostream &os) {
  prepareForJit(module.getContext());
  bool ok = true, any = false;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (!options.function.empty() && f.getName() != options.function)
      continue;
    if (!isCheckable(f)) {
      if (!options.function.empty())
        return f.emitError("attn-raise-check: only public functions with "
                           "ranked tensor arguments and results can be "
                           "checked");
      continue;
    }
    if (hasStaticShapes(f.getFunctionType())) {
      any = true;
      ok &=
          succeeded(checkFunction(module, f, f.getFunctionType(), options, os));
      continue;
    }
    // Dynamic sizes: checked at the shapes given, skipped without.
    if (options.shapes.empty()) {
      if (!options.function.empty())
        return f.emitError("attn-raise-check: @")
               << f.getName()
               << " has dynamic sizes: give the shapes to run it at "
                  "(--shapes)";
      os << "@" << f.getName()
         << ": dynamic sizes, skipped (give --shapes to check it)\n";
      continue;
    }
    for (const std::string &shapes : options.shapes) {
      FailureOr<FunctionType> type = specializedType(f, shapes);
      if (failed(type))
        return failure();
      any = true;
      ok &= succeeded(checkFunction(module, f, *type, options, os));
    }
  }
  if (!any)
    return module.emitError("attn-raise-check: no function to check (public "
                            "functions with ranked tensor arguments and "
                            "results, static or with --shapes")
           << (options.function.empty() ? "" : ", named " + options.function)
           << ")";
  return success(ok);
}
