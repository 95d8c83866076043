# Run by ctest (attnrt-runtime-example, see Tests.cmake):
#   cmake -DBUILD_DIR=... -DEXAMPLE_DIR=... -DWORK_DIR=... -DMANIFEST=...
#         [-DSTUB_DIR=...] [-DGENERATOR=...] [-DCXX_COMPILER=...] -P RuntimeExample.cmake
# Installs this kernels-runtime build into a temporary prefix, builds
# examples/runtime against the installed AttnOptRuntime package, and runs
# it on MANIFEST (whose PTX must exist): against the stub driver (STUB_DIR)
# it must exit with 2 and "no CUDA driver/GPU"; without STUB_DIR (a GPU
# machine, a training manifest) it must print OK.

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "runtime-example: `${cmd}` failed (${rc}):\n${out}\n${err}")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/example-build)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/libattnopt_runtime.so include/attnrt/Runtime.h
    include/attnrt/RuntimeC.h include/attnrt/Sizes.h
    lib/cmake/AttnOptRuntime/AttnOptRuntimeConfig.cmake
    lib/cmake/AttnOptRuntime/AttnOptRuntimeConfigVersion.cmake
    bin/attn-run)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "runtime-example: ${f} was not installed")
  endif()
endforeach()
# Only the public headers: the example must not see the internal ones.
file(GLOB headers RELATIVE ${prefix}/include/attnrt ${prefix}/include/attnrt/*)
list(SORT headers)
if(NOT headers STREQUAL "Runtime.h;RuntimeC.h;Sizes.h")
  message(FATAL_ERROR "runtime-example: installed headers are ${headers}")
endif()

set(configure ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${build}
  -DCMAKE_BUILD_TYPE=Release
  -DAttnOptRuntime_DIR=${prefix}/lib/cmake/AttnOptRuntime)
if(GENERATOR)
  list(APPEND configure -G ${GENERATOR})
endif()
if(CXX_COMPILER)
  list(APPEND configure -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
run(${configure})
run(${CMAKE_COMMAND} --build ${build})

if(STUB_DIR)
  set(ENV{LD_LIBRARY_PATH} "${STUB_DIR}")
  set(expect_rc 2)
  set(expect_out "no CUDA driver/GPU")
else()
  set(expect_rc 0)
  set(expect_out "OK")
endif()
execute_process(COMMAND ${build}/attn-runtime-example ${MANIFEST}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("---- stdout\n${out}---- stderr\n${err}---- exit status ${rc}")
if(NOT "${rc}" STREQUAL "${expect_rc}" OR NOT "${out}${err}" MATCHES "${expect_out}")
  message(FATAL_ERROR "runtime-example: expected exit ${expect_rc} and '${expect_out}'")
endif()
message("runtime-example: PASS")
