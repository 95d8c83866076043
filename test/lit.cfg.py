# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "ATTENTION_OPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.attn_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs"]
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%attn_src_root", config.attn_src_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.attn_tools_dir, config.llvm_tools_dir]
tools = ["attention-opt", "FileCheck", "not", "count", "mlir-runner", "mlir-opt"]
optional = ["attn-cpu-run", "attn-raise-check", "attn-compile", "attn-run", "attn-manifest-check"]
tools += [t for t in optional
          if os.path.exists(os.path.join(config.attn_tools_dir, t))]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ptxas from CUDA: PTX tests need only the assembler, not a GPU.
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    llvm_config.add_tool_substitutions([ToolSubst("ptxas", ptxas)])

# Tests that launch kernels need a visible NVIDIA GPU.
if shutil.which("nvidia-smi") and os.system("nvidia-smi -L >/dev/null 2>&1") == 0:
    config.available_features.add("gpu")
