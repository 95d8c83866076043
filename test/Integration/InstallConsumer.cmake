# Run by ctest (install-consumer, see CMakeLists.txt next to this file):
#   cmake -DATTN_BUILD_DIR=... -DATTN_CONSUMER_SOURCE_DIR=... -DATTN_WORK_DIR=...
#         -DATTN_MLIR_OPT=... -P InstallConsumer.cmake

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "install-consumer: `${cmd}` failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${ATTN_WORK_DIR}/prefix)
set(build ${ATTN_WORK_DIR}/consumer-build)
file(REMOVE_RECURSE ${ATTN_WORK_DIR})

run(${CMAKE_COMMAND} --install ${ATTN_BUILD_DIR} --prefix ${prefix})
foreach(f
    include/attnopt/InitAllAttn.h
    include/attnopt/Pipelines/Pipelines.h
    include/attnopt/Dialect/Attn/IR/AttnOps.h.inc
    include/attnopt/Dialect/Attn/Transforms/Passes.h.inc
    include/attnopt/Conversion/Passes.h.inc
    lib/libAttnOptDialect.a lib/libAttnOptTransforms.a
    lib/AttnDialectPlugin.so lib/AttnPassPlugin.so
    lib/cmake/AttnOpt/AttnOptConfig.cmake
    lib/cmake/AttnOpt/AttnOptConfigVersion.cmake
    lib/cmake/AttnOpt/AttnOptTargets.cmake
    bin/attention-opt bin/attn-cpu-run bin/attn-compile)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install-consumer: ${f} was not installed")
  endif()
endforeach()

set(configure ${CMAKE_COMMAND} -S ${ATTN_CONSUMER_SOURCE_DIR} -B ${build}
  -DCMAKE_BUILD_TYPE=Release -DAttnOpt_DIR=${prefix}/lib/cmake/AttnOpt)
if(ATTN_GENERATOR)
  list(APPEND configure -G ${ATTN_GENERATOR})
endif()
if(ATTN_CXX_COMPILER)
  list(APPEND configure -DCMAKE_CXX_COMPILER=${ATTN_CXX_COMPILER})
endif()
if(ATTN_CXX_COMPILER_LAUNCHER)
  list(APPEND configure -DCMAKE_CXX_COMPILER_LAUNCHER=${ATTN_CXX_COMPILER_LAUNCHER})
endif()
run(${configure})
run(${CMAKE_COMMAND} --build ${build})
run(${build}/attn-consumer)
message(STATUS "consumer: ${last_output}")
if(NOT last_output MATCHES "OK")
  message(FATAL_ERROR "install-consumer: the consumer did not print OK")
endif()

# The installed tools and plugins run from the prefix (their RPATHs).
set(ir ${ATTN_WORK_DIR}/attention.mlir)
file(WRITE ${ir} [[
func.func @f(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
  return %o, %l : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
}
]])
run(${prefix}/bin/attention-opt ${ir} --attn-cpu-pipeline=lower-to-llvm=false)
if(NOT last_output MATCHES "scf.forall")
  message(FATAL_ERROR "install-consumer: installed attention-opt did not tile:\n${last_output}")
endif()
if(ATTN_MLIR_OPT AND EXISTS ${ATTN_MLIR_OPT})
  run(${ATTN_MLIR_OPT} ${ir}
    --load-dialect-plugin=${prefix}/lib/AttnDialectPlugin.so
    --load-pass-plugin=${prefix}/lib/AttnPassPlugin.so
    "--pass-pipeline=builtin.module(func.func(attn-decompose))")
  if(last_output MATCHES "attn.attention" OR NOT last_output MATCHES "linalg.generic")
    message(FATAL_ERROR "install-consumer: mlir-opt with the installed plugins did not decompose:\n${last_output}")
  endif()
endif()
message("install-consumer: PASS")
