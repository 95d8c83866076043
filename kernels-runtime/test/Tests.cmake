# Tests of kernels-runtime, included from ../CMakeLists.txt.
#
#  * attnrt-host-tests: JSON, manifest validation, conversions (no CUDA at
#    all; links only attnrt_host).
#  * attn-run-*: the command line. attn-run opens libcuda.so.1 on first use
#    (attnrt/Driver.h); on a machine without a driver these tests run it
#    against the toolkit's stub driver
#    (a libcuda.so.1 link to stubs/libcuda.so on LD_LIBRARY_PATH), whose
#    cuInit fails with CUDA_ERROR_STUB_LIBRARY: exactly the "no CUDA
#    driver/GPU" path. Every test that needs no GPU uses the stub, also on a
#    GPU machine, so that they behave the same everywhere.
#  * attn-run-gpu-*: need a GPU (label "gpu"); registered when a real
#    libcuda.so.1 is found at configure time (option ATTNRT_GPU_TESTS).
#  * attn-manifest-check-*: the manifest checker's command line (no CUDA).

set(ATTNRT_TEST_SRC ${CMAKE_CURRENT_SOURCE_DIR}/test)
set(ATTNRT_TEST_DATA ${CMAKE_CURRENT_BINARY_DIR}/test-data)

add_executable(attnrt-host-tests test/HostTests.cpp)
target_link_libraries(attnrt-host-tests PRIVATE attnrt_host)
target_compile_options(attnrt-host-tests PRIVATE ${ATTNRT_WARNINGS})
add_test(NAME attnrt-host-tests
  COMMAND attnrt-host-tests ${ATTNRT_TEST_SRC}/manifests)

# --- sample kernels: real PTX for end-to-end tests ---------------------------
# test/sample/sample_kernels.cu holds small naive attention kernels with the
# manifest ABI (shapes compiled in). They are compiled to PTX for compute_80
# (runs on any GPU >= sm_80) and for compute_100a (which an sm_90 GPU must
# refuse: the "PTX for another architecture" test).
file(MAKE_DIRECTORY ${ATTNRT_TEST_DATA})
set(ATTNRT_NVCC_HOST_FLAGS)
if(CMAKE_CUDA_HOST_COMPILER)
  list(APPEND ATTNRT_NVCC_HOST_FLAGS -ccbin ${CMAKE_CUDA_HOST_COMPILER})
endif()
set(ATTNRT_SAMPLE_PTX)
foreach(arch 80 100a)
  set(ptx ${ATTNRT_TEST_DATA}/sample_kernels_${arch}.ptx)
  add_custom_command(OUTPUT ${ptx}
    COMMAND ${CMAKE_CUDA_COMPILER} ${ATTNRT_NVCC_HOST_FLAGS} -ptx -std=c++17
      -arch=compute_${arch} -I${ATTNRT_REPO_ROOT}/include
      ${ATTNRT_TEST_SRC}/sample/sample_kernels.cu -o ${ptx}
    DEPENDS ${ATTNRT_TEST_SRC}/sample/sample_kernels.cu
      ${ATTNRT_REPO_ROOT}/include/attnopt/Reference/Philox.h
    COMMENT "Compiling the sample attention kernels to PTX (compute_${arch})"
    VERBATIM)
  list(APPEND ATTNRT_SAMPLE_PTX ${ptx})
endforeach()
add_custom_target(attnrt-sample-ptx ALL DEPENDS ${ATTNRT_SAMPLE_PTX})
foreach(m sample wrong sm100a missing-kernel oom fault grad wrong-grad
    grad-group wrong-grad-group varlen varlen-wrong)
  configure_file(${ATTNRT_TEST_SRC}/sample/${m}.json ${ATTNRT_TEST_DATA}/${m}.json
    COPYONLY)
endforeach()

# --- the command line ----------------------------------------------------------
find_library(ATTNRT_CUDA_STUB NAMES cuda
  PATHS ${CUDAToolkit_LIBRARY_DIR}/stubs ${CUDAToolkit_TARGET_DIR}/lib/stubs
        ${CUDAToolkit_TARGET_DIR}/lib64/stubs
  NO_DEFAULT_PATH)
set(ATTNRT_STUB_DIR)
if(ATTNRT_CUDA_STUB)
  set(ATTNRT_STUB_DIR ${CMAKE_CURRENT_BINARY_DIR}/stub-driver)
  file(MAKE_DIRECTORY ${ATTNRT_STUB_DIR})
  file(CREATE_LINK ${ATTNRT_CUDA_STUB} ${ATTNRT_STUB_DIR}/libcuda.so.1 SYMBOLIC)
else()
  message(STATUS "attnrt: no CUDA stub driver found; the attn-run command "
    "line tests run against the system's libcuda.so.1")
endif()

# The runtime library as a user gets it: installed, found with
# find_package(AttnOptRuntime), linked by examples/runtime; run against the
# stub driver ("no CUDA driver/GPU", exit 2).
if(ATTNRT_STUB_DIR)
  add_test(NAME attnrt-runtime-example
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR}
      -DEXAMPLE_DIR=${ATTNRT_REPO_ROOT}/examples/runtime
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/runtime-example
      -DMANIFEST=${ATTNRT_TEST_DATA}/sample.json
      -DSTUB_DIR=${ATTNRT_STUB_DIR} -DGENERATOR=${CMAKE_GENERATOR}
      -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
      -P ${ATTNRT_TEST_SRC}/RuntimeExample.cmake)
  set_tests_properties(attnrt-runtime-example PROPERTIES
    TIMEOUT 300 PASS_REGULAR_EXPRESSION "runtime-example: PASS")
endif()
# For tests outside kernels-runtime (the Python package's).
set(ATTNRT_STUB_DIR "${ATTNRT_STUB_DIR}" CACHE INTERNAL "")

# attnrt_cli_test(NAME EXIT code [REGEX regex] [GPU] ARGS args...)
function(attnrt_cli_test name)
  cmake_parse_arguments(T "GPU" "EXIT;REGEX" "ARGS" ${ARGN})
  string(REPLACE ";" "|" args "${T_ARGS}")
  set(libdir)
  if(NOT T_GPU)
    set(libdir ${ATTNRT_STUB_DIR})
  endif()
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DATTN_RUN=$<TARGET_FILE:attn-run>
      "-DARGS=${args}" -DEXIT=${T_EXIT} "-DREGEX=${T_REGEX}"
      "-DLIBDIR=${libdir}" -P ${ATTNRT_TEST_SRC}/RunAndCheck.cmake)
  if(T_GPU)
    set_tests_properties(${name} PROPERTIES LABELS gpu
      SKIP_REGULAR_EXPRESSION "no CUDA driver/GPU available")
  endif()
endfunction()

set(S ${ATTNRT_TEST_DATA})
set(M ${ATTNRT_TEST_SRC}/manifests)
attnrt_cli_test(attn-run-help EXIT 0 REGEX "usage: attn-run MANIFEST.json"
  ARGS --help)
# attn-run opens the driver library on first use (attnrt/Driver.h): without
# one it says so and exits with 2, as with the stub, instead of failing in
# the dynamic loader. A library that does not exist stands for a machine
# without the NVIDIA driver.
add_test(NAME attn-run-no-driver-library
  COMMAND ${CMAKE_COMMAND} -E env
    ATTNRT_CUDA_DRIVER_LIBRARY=${CMAKE_CURRENT_BINARY_DIR}/no-such-libcuda.so.1
    ${CMAKE_COMMAND} -DATTN_RUN=$<TARGET_FILE:attn-run> -DARGS=--self-test
    -DEXIT=2 "-DREGEX=attn-run: no CUDA driver/GPU available: the NVIDIA driver library could not be loaded \\([^)]*no-such-libcuda.so.1: cannot open shared object file"
    -DLIBDIR= -P ${ATTNRT_TEST_SRC}/RunAndCheck.cmake)
if(ATTNRT_STUB_DIR)
  attnrt_cli_test(attn-run-no-gpu EXIT 2
    REGEX "attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed: CUDA_ERROR_STUB_LIBRARY"
    ARGS ${S}/sample.json)
  attnrt_cli_test(attn-run-self-test-no-gpu EXIT 2
    REGEX "attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed"
    ARGS --self-test)
  attnrt_cli_test(attn-run-grad-no-gpu EXIT 2
    REGEX "attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed"
    ARGS ${S}/grad.json)
  attnrt_cli_test(attn-run-train-no-gpu EXIT 2
    REGEX "attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed"
    ARGS ${S}/grad.json --train --kernel sample_grad_dq_bf16)
  # The group manifests load (the manifest is checked before the driver).
  attnrt_cli_test(attn-run-grad-group-no-gpu EXIT 2
    REGEX "attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed"
    ARGS ${S}/grad-group.json --kernel sample_group_dkdv_dq_bf16)
  attnrt_cli_test(attn-run-wrong-grad-group-no-gpu EXIT 2
    REGEX "attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed"
    ARGS ${S}/wrong-grad-group.json --train)
  # Forward and backward kernels with run-time sizes validate and bind
  # (workspaces rounded, grids computed) for every draw before the driver.
  configure_file(${M}/runtime-sizes-grad.json ${S}/runtime-sizes-grad.json
    COPYONLY)
  file(TOUCH ${S}/runtime-sizes-grad.ptx)
  attnrt_cli_test(attn-run-runtime-sizes-grad-no-gpu EXIT 2
    REGEX "attn-run: sizes 1 of 2: batch=2,query_len=100,key_len=77.*attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed"
    ARGS ${S}/runtime-sizes-grad.json --train
      --sizes batch=2,query_len=100,key_len=77 --sizes query_len=1,key_len=300,batch=1)
  # Split-KV forward groups (test/manifests/split-kv*.json) load and bind
  # before the driver; with --train the backward group naming the forward
  # group ("forward": "attn_fwd_0") pairs with it.
  attnrt_cli_test(attn-run-split-kv-train-no-gpu EXIT 2
    REGEX "attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed"
    ARGS ${S}/split-kv.json --train)
  attnrt_cli_test(attn-run-split-kv-runtime-no-gpu EXIT 2
    REGEX "attn-run: no CUDA driver/GPU available: cuInit\\(0\\) failed"
    ARGS ${S}/split-kv-runtime.json --sizes batch=3,key_len=1000
      --kernel attn_fwd_combine_0)
  # Split counts decided at launch (test/manifests/split-kv-launch.json):
  # a given num_splits binds before the driver; the split rule needs the
  # device's SM count, so it applies after (not reached here).
  attnrt_cli_test(attn-run-split-kv-launch-no-gpu EXIT 2
    REGEX "attn-run: sizes 1 of 2: batch=2,key_len=1000,num_splits=5@NL@.*no CUDA driver/GPU available"
    ARGS ${S}/split-kv-launch.json --sizes batch=2,key_len=1000,num_splits=5
      --sizes batch=1,key_len=1)
  # Packed kernels: the lengths are drawn, printed and bound (offsets,
  # shapes, grid) before the driver; a random split of --sizes or of the
  # manifest's static totals, a long-tail draw, or given lengths.
  attnrt_cli_test(attn-run-varlen-split-no-gpu EXIT 2
    REGEX "attn-run: kernel 'sample_varlen_bf16': 4 sequences, query lengths \\[298, 72, 329, 301\\], key lengths the same \\(random split of 1000 query and 1000 key tokens into 4 sequences, seed 1\\)@NL@attn-run: kernel 'sample_varlen_static_f16': 3 sequences, query lengths \\[[0-9, ]+\\], key lengths \\[[0-9, ]+\\] \\(random split of 300 query and 500 key tokens into 3 sequences, seed 1\\).*no CUDA driver/GPU available"
    ARGS ${S}/varlen.json --sizes batch=4,query_len=1000,key_len=1000)
  attnrt_cli_test(attn-run-varlen-dist-no-gpu EXIT 2
    REGEX "kernel 'sample_varlen_bf16': 64 sequences, query lengths \\[[0-9, ]+, \\.\\.\\. \\(52 more\\) \\.\\.\\., [0-9, ]+\\], key lengths the same \\(longtail:64:16:4096, seed 5\\).*no CUDA driver/GPU available"
    ARGS ${S}/varlen.json --kernel sample_varlen_bf16
      --seqlens-dist=longtail:64:16:4096 --seed 5)
  attnrt_cli_test(attn-run-varlen-given-no-gpu EXIT 2
    REGEX "kernel 'sample_varlen_bf16': 3 sequences, query lengths \\[0, 130, 7\\], key lengths \\[10, 0, 200\\] \\(given: --seqlens-q, --seqlens-k\\).*no CUDA driver/GPU available"
    ARGS ${S}/varlen.json --kernel sample_varlen_bf16 --seqlens-q=0,130,7
      --seqlens-k=10,0,200)
  # Packed backward groups: bound (workspaces W, per-stage grids) to the
  # lengths of their forward, or given, before the driver.
  attnrt_cli_test(attn-run-varlen-grad-train-no-gpu EXIT 2
    REGEX "attn-run: kernel 'attn_fwd_0': 4 sequences, query lengths \\[298, 72, 329, 301\\], key lengths the same \\(random split [^@NL@]*\\)@NL@attn-run: backward group 'attn_bwd_0': 4 sequences, query lengths \\[298, 72, 329, 301\\], key lengths the same \\(random split .*no CUDA driver/GPU available"
    ARGS ${S}/varlen-grad.json --train --sizes batch=4,query_len=1000,key_len=1000)
  attnrt_cli_test(attn-run-varlen-grad-given-no-gpu EXIT 2
    REGEX "attn-run: backward group 'attn_bwd_1': 3 sequences, query lengths \\[100, 0, 200\\], key lengths \\[1, 498, 1\\] \\(given: --seqlens-q, --seqlens-k\\)@NL@.*no CUDA driver/GPU available"
    ARGS ${S}/varlen-grad.json --kernel attn_bwd_dkdv_1 --seqlens-q=100,0,200
      --seqlens-k=1,498,1)
  # Paged forward groups (test/manifests/paged.json): the cache lengths
  # (drawn, or given per --cache-seqlens list) and the block table are
  # drawn, checked, printed and bound before the driver.
  attnrt_cli_test(attn-run-paged-no-gpu EXIT 2
    REGEX "attn-run: paged forward group 'attn_fwd_0': 3 sequences, cache lengths \\[[0-9, ]+\\] \\(drawn from seed 4; capacity 192\\); block table \\[3, 12\\]: [0-9]+ entries on shuffled pages of 40, unused entries -1 \\(drawn from seed 4\\)@NL@.*no CUDA driver/GPU available"
    ARGS ${S}/paged.json --seed 4)
  attnrt_cli_test(attn-run-paged-given-no-gpu EXIT 2
    REGEX "attn-run: cache lengths 1 of 2: \\[0, 192, 17\\]@NL@attn-run: paged forward group 'attn_fwd_0': 3 sequences, cache lengths \\[0, 192, 17\\] \\(given; capacity 192\\); block table \\[3, 12\\]: 14 entries on shuffled pages of 40, unused entries -1 \\(drawn from seed 1\\)@NL@.*no CUDA driver/GPU available"
    ARGS ${S}/paged.json --cache-seqlens=0,192,17 --cache-seqlens=5,5,5)
  # A run-time batch and page count (test/manifests/paged-runtime.json):
  # bound per --sizes draw, the lengths and the block table drawn within the
  # bound batch and pages (shared where the pool is smaller than the
  # sequences need), given lengths checked against the bound batch.
  attnrt_cli_test(attn-run-paged-runtime-no-gpu EXIT 2
    REGEX "attn-run: sizes 1 of 2: batch=3,num_pages=250@NL@attn-run: paged forward group 'attn_fwd_0': 3 sequences, cache lengths \\[[0-9, ]+\\] \\(drawn from seed 4; capacity 6400\\); block table \\[3, 100\\]: [0-9]+ entries on shuffled pages of 250[^@NL@]*, unused entries -1 \\(drawn from seed 4\\)@NL@.*no CUDA driver/GPU available"
    ARGS ${S}/paged-runtime.json --sizes batch=3,num_pages=250
      --sizes batch=2,num_pages=30 --seed 4)
  attnrt_cli_test(attn-run-paged-runtime-given-no-gpu EXIT 2
    REGEX "attn-run: paged forward group 'attn_fwd_0': 2 sequences, cache lengths \\[0, 6400\\] \\(given; capacity 6400\\); block table \\[2, 100\\]: 100 entries on shuffled pages of 30 \\(70 on shared pages\\), unused entries -1 \\(drawn from seed 1\\)@NL@.*no CUDA driver/GPU available"
    ARGS ${S}/paged-runtime.json --sizes batch=2,num_pages=30,num_splits=7
      --cache-seqlens=0,6400)
  # --api takes paged groups and merge kernels (the runtime library offers
  # them): bound and drawn as without it, then the driver.
  # A run-time block-table width (test/manifests/paged-width.json): the
  # capacity and the table's shape follow max_pages_per_seq (the driver
  # stops the run after the first draw here).
  attnrt_cli_test(attn-run-paged-width-no-gpu EXIT 2
    REGEX "attn-run: sizes 1 of 2: batch=2,num_pages=30,max_pages_per_seq=7@NL@attn-run: paged forward group 'attn_fwd_0': 2 sequences, cache lengths \\[0, 448\\] \\(given; capacity 448\\); block table \\[2, 7\\]: 7 entries on shuffled pages of 30, unused entries -1 \\(drawn from seed 1\\)@NL@.*no CUDA driver/GPU available"
    ARGS ${S}/paged-width.json --sizes batch=2,num_pages=30,max_pages_per_seq=7
      --sizes batch=2,num_pages=250,max_pages_per_seq=100 --cache-seqlens=0,448)
  attnrt_cli_test(attn-run-paged-api-no-gpu EXIT 2
    REGEX "attn-run: paged forward group 'attn_fwd_0': 2 sequences, [^@NL@]*@NL@.*no CUDA driver/GPU available"
    ARGS ${S}/paged-runtime.json --api --sizes batch=2,num_pages=30)
  attnrt_cli_test(attn-run-merge-api-no-gpu EXIT 2
    REGEX "no CUDA driver/GPU available"
    ARGS ${S}/merge.json --api)
  # The runtime library's API without a device (test/ApiTests.cpp): the
  # argument names of paged and merge sets, the sizes, and load of paged
  # and merge manifests up to the driver.
  add_executable(attnrt-api-tests test/ApiTests.cpp)
  target_link_libraries(attnrt-api-tests PRIVATE AttnOptRuntime)
  target_compile_options(attnrt-api-tests PRIVATE ${ATTNRT_WARNINGS})
  add_test(NAME attnrt-api-tests COMMAND attnrt-api-tests ${S})
  set_tests_properties(attnrt-api-tests PROPERTIES
    ENVIRONMENT "LD_LIBRARY_PATH=${ATTNRT_STUB_DIR}"
    PASS_REGULAR_EXPRESSION "attnrt-api-tests: [0-9]+ checks, 0 failed")
endif()
# Paged groups: bad cache lengths are input errors before anything runs.
attnrt_cli_test(attn-run-paged-length-range EXIT 3
  REGEX "attn-run: error: --cache-seqlens: length 1 is 193, outside \\[0, 192\\] \\(the cache of kernel 'attn_fwd_split_kv_0' holds max_pages_per_seq \\* page_size = 12 \\* 16 = 192 tokens per sequence\\)"
  ARGS ${M}/paged.json --cache-seqlens=0,193,1)
attnrt_cli_test(attn-run-paged-length-count EXIT 3
  REGEX "--cache-seqlens: 2 cache length\\(s\\), but kernel 'attn_fwd_split_kv_0' has batch 3 \\(one length per sequence\\)"
  ARGS ${M}/paged.json --cache-seqlens=4,5)
attnrt_cli_test(attn-run-paged-second-list EXIT 3
  REGEX "--cache-seqlens: length 0 is 500, outside \\[0, 192\\]"
  ARGS ${M}/paged.json --cache-seqlens=1,2,3 --cache-seqlens=500,2,3)
attnrt_cli_test(attn-run-paged-bad-length EXIT 3
  REGEX "--cache-seqlens '3,-1': '-1' is not a sequence length"
  ARGS ${M}/paged.json --cache-seqlens=3,-1)
# A run-time batch and page count: sizes and lengths checked before
# anything runs.
attnrt_cli_test(attn-run-paged-runtime-no-sizes EXIT 3
  REGEX "kernel\\(s\\) attn_fwd_split_kv_0, attn_fwd_combine_0 take their batch, lengths or paged-cache sizes at run time \\(null in the manifest\\): give them with --sizes, e.g. --sizes batch=2,num_pages=256"
  ARGS ${M}/paged-runtime.json)
attnrt_cli_test(attn-run-paged-runtime-no-pages EXIT 3
  REGEX "kernel 'attn_fwd_split_kv_0': no value for the run-time size num_pages \\(give it, e.g. --sizes num_pages=128\\)"
  ARGS ${M}/paged-runtime.json --sizes batch=2)
attnrt_cli_test(attn-run-paged-width-no-width EXIT 3
  REGEX "kernel 'attn_fwd_split_kv_0': no value for the run-time size max_pages_per_seq \\(give it, e.g. --sizes max_pages_per_seq=128\\)"
  ARGS ${M}/paged-width.json --sizes batch=2,num_pages=30)
attnrt_cli_test(attn-run-paged-width-capacity EXIT 3
  REGEX "kernel 'attn_fwd_split_kv_0': max_pages_per_seq = 33554432: max_pages_per_seq \\* page_size = 33554432 \\* 64 tokens, more than the 2\\^31 - 1 an i32 cache_seqlens entry holds"
  ARGS ${M}/paged-width.json --sizes batch=1,num_pages=2,max_pages_per_seq=33554432)
attnrt_cli_test(attn-run-paged-runtime-32-bit EXIT 3
  REGEX "kernel 'attn_fwd_split_kv_0': 'key_cache' \\[32768, 64, 8, 128\\] has 2147483648 elements: the kernels' 32-bit indices need fewer than 2\\^31"
  ARGS ${M}/paged-runtime.json --sizes batch=1,num_pages=32768)
attnrt_cli_test(attn-run-paged-runtime-length-count EXIT 3
  REGEX "--cache-seqlens: 3 cache length\\(s\\), but kernel 'attn_fwd_split_kv_0' has batch 2 \\(one length per sequence\\)"
  ARGS ${M}/paged-runtime.json --sizes batch=2,num_pages=30
    --cache-seqlens=1,2 --cache-seqlens=1,2,3)
attnrt_cli_test(attn-run-cache-seqlens-not-paged EXIT 3
  REGEX "'[^']*sample.json' has no paged kernel \\(\"op\": \"paged_attention\"\\): --cache-seqlens is for those"
  ARGS ${S}/sample.json --cache-seqlens=3)
# With several lists the error comes before the first list's heading.
attnrt_cli_test(attn-run-cache-seqlens-lists-not-paged EXIT 3
  REGEX "^attn-run: error: '[^']*sample.json' has no paged kernel"
  ARGS ${S}/sample.json --cache-seqlens=3 --cache-seqlens=1)
# Split counts decided at launch: num_splits out of a group's range, for a
# manifest without such a group, or not a count, before anything runs.
attnrt_cli_test(attn-run-num-splits-range EXIT 3
  REGEX "attn-run: error: kernel 'attn_fwd_split_kv_1': num_splits = 33: expected 1 to 32 \\(codegen.split_rule.max_splits\\)"
  ARGS ${M}/split-kv-launch.json --sizes batch=2,key_len=1000,num_splits=33)
attnrt_cli_test(attn-run-num-splits-static EXIT 3
  REGEX "num_splits = 3 given, but no split-KV group of this manifest decides its split count at launch \\(codegen.splits null\\)"
  ARGS ${M}/split-kv-runtime.json --sizes batch=2,key_len=100,num_splits=3)
attnrt_cli_test(attn-run-num-splits-zero EXIT 3
  REGEX "sizes 'batch=2,num_splits=0': 'num_splits' must be an integer in \\[1, 2\\^31 - 1\\], got '0'"
  ARGS ${M}/split-kv-launch.json --sizes batch=2,num_splits=0)
# Packed kernels: errors before anything runs.
attnrt_cli_test(attn-run-varlen-grad-static-batch EXIT 3
  REGEX "kernel 'attn_bwd_prep_1': 2 sequences, but the kernel's batch is 3 \\(static in the manifest\\)"
  ARGS ${M}/varlen-grad.json --kernel attn_bwd_dq_1 --seqlens-q=100,200)
attnrt_cli_test(attn-run-varlen-no-lengths EXIT 3
  REGEX "attn-run: error: kernel 'sample_varlen_bf16': a packed kernel \\(varlen_attention\\) needs its sequence lengths: give --seqlens-q=L0,L1,\\.\\.\\. "
  ARGS ${S}/varlen.json)
attnrt_cli_test(attn-run-varlen-static-batch EXIT 3
  REGEX "kernel 'sample_varlen_static_f16': 2 sequences, but the kernel's batch is 3 \\(static in the manifest\\)"
  ARGS ${S}/varlen.json --kernel sample_varlen_static_f16 --seqlens-q=100,200)
attnrt_cli_test(attn-run-varlen-static-total EXIT 3
  REGEX "kernel 'sample_varlen_static_f16': the key lengths add up to 499 tokens, but the kernel's total_key_tokens is 500 \\(static in the manifest\\)"
  ARGS ${S}/varlen.json --kernel sample_varlen_static_f16
    --seqlens-q=100,0,200 --seqlens-k=100,199,200)
attnrt_cli_test(attn-run-varlen-32-bit EXIT 3
  REGEX "kernel 'sample_varlen_bf16': 'query' \\[5000000, 8, 64\\] has 2560000000 elements: the kernels' 32-bit indices need fewer than 2\\^31"
  ARGS ${S}/varlen.json --kernel sample_varlen_bf16 --seqlens-q=5000000)
attnrt_cli_test(attn-run-varlen-batch EXIT 3
  REGEX "kernel 'sample_varlen_bf16': batch = 70000: a packed kernel takes at most 65535 sequences"
  ARGS ${S}/varlen.json --kernel sample_varlen_bf16
    --sizes batch=70000,query_len=100000,key_len=100000)
attnrt_cli_test(attn-run-varlen-bad-length EXIT 3
  REGEX "--seqlens-q '3,-1': '-1' is not a sequence length"
  ARGS ${S}/varlen.json --seqlens-q=3,-1)
attnrt_cli_test(attn-run-varlen-k-count EXIT 3
  REGEX "--seqlens-q has 2 lengths, --seqlens-k 1 \\(one of each per sequence\\)"
  ARGS ${S}/varlen.json --seqlens-q=3,4 --seqlens-k=5)
attnrt_cli_test(attn-run-varlen-not-packed EXIT 3
  REGEX "'[^']*sample.json' has no packed kernel \\(\"op\": \"varlen_attention\"\\): --seqlens-q, --seqlens-k and --seqlens-dist are for those"
  ARGS ${S}/sample.json --seqlens-q=3,4)
attnrt_cli_test(attn-run-runtime-sizes-grad-no-sizes EXIT 3
  REGEX "kernel\\(s\\) attn_fwd_0, attn_fwd_3, attn_bwd_prep_0, [^@NL@]*attn_bwd_dq_3 take their batch, lengths or paged-cache sizes at run time \\(null in the manifest\\): give them with --sizes, e.g. --sizes batch=2,query_len=1000,key_len=1000"
  ARGS ${M}/runtime-sizes-grad.json --train)
attnrt_cli_test(attn-run-grad-group-manifest EXIT 3
  REGEX "attn-run: error: cannot read PTX file '[^']*/attention_grad.ptx' \\(named by \"ptx\" in '[^']*grad-group.json'\\)"
  ARGS ${M}/grad-group.json)
attnrt_cli_test(attn-run-bad-grad-manifest EXIT 3
  REGEX "bad-grad-order.json:91:18: kernel 'attn_bwd_dq_0': params\\[3\\]: expected parameter 'output' here, got 'lse' \\(the \"dq\" parameters, in order: query, key, value, output, lse, grad_output, mask, seed, offset, grad_query\\)"
  ARGS ${M}/bad-grad-order.json)
attnrt_cli_test(attn-run-train-nothing-to-pair EXIT 3
  REGEX "--train: no backward kernel in '[^']*sample.json' names a forward kernel"
  ARGS ${S}/sample.json --train)
attnrt_cli_test(attn-run-train-unpaired-kernel EXIT 3
  REGEX "--train: kernel 'sample_gqa_bf16' is in no forward/backward pair"
  ARGS ${S}/sample.json --train --kernel sample_gqa_bf16)
attnrt_cli_test(attn-run-train-self-test EXIT 3
  REGEX "--self-test and --train do not go together" ARGS --self-test --train)
attnrt_cli_test(attn-run-missing-manifest EXIT 3
  REGEX "attn-run: error: cannot read manifest '[^']*no-such.json': No such file or directory"
  ARGS ${M}/no-such.json)
attnrt_cli_test(attn-run-bad-json EXIT 3
  REGEX "attn-run: error: [^@NL@]*bad-json.json:4:3: syntax error while parsing object - unexpected string literal; expected '}'"
  ARGS ${M}/bad-json.json)
attnrt_cli_test(attn-run-inconsistent-manifest EXIT 3
  REGEX "bad-shape.json:24:90: kernel 'attn_fwd_0': param 'key': shape \\[2, 2, 190, 64\\] does not match"
  ARGS ${M}/bad-shape.json)
attnrt_cli_test(attn-run-missing-ptx EXIT 3
  REGEX "attn-run: error: cannot read PTX file '[^']*/attention.ptx' \\(named by \"ptx\" in '[^']*doc-example.json'\\): No such file or directory"
  ARGS ${M}/doc-example.json)
attnrt_cli_test(attn-run-unknown-option EXIT 3
  REGEX "unknown option '--frobnicate'" ARGS ${S}/sample.json --frobnicate)
attnrt_cli_test(attn-run-bad-number EXIT 3
  REGEX "--iters: expected an integer in \\[1, 1000000\\], got 'many'"
  ARGS ${S}/sample.json --iters many)
attnrt_cli_test(attn-run-no-manifest EXIT 3 REGEX "no manifest given" ARGS)
attnrt_cli_test(attn-run-unknown-kernel EXIT 3
  REGEX "no kernel named 'nope' in '[^']*sample.json' \\(it has: sample_gqa_bf16,"
  ARGS ${S}/sample.json --kernel nope)

# --- attn-manifest-check -----------------------------------------------------
# attnrt_check_test(NAME EXIT code [REGEX regex] ARGS args...)
function(attnrt_check_test name)
  cmake_parse_arguments(T "" "EXIT;REGEX" "ARGS" ${ARGN})
  string(REPLACE ";" "|" args "${T_ARGS}")
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DATTN_RUN=$<TARGET_FILE:attn-manifest-check>
      "-DARGS=${args}" -DEXIT=${T_EXIT} "-DREGEX=${T_REGEX}"
      -P ${ATTNRT_TEST_SRC}/RunAndCheck.cmake)
endfunction()

# What the compiler writes (test/manifests/compiler-*.json: attn-compile's
# manifests for test/Runtime/manifests-accepted.mlir, with their "codegen")
# and the sample kernels' hand-written manifests (no "codegen") are valid.
# The checker only needs the PTX files to be readable regular files.
foreach(m compiler-sm90a compiler-sm80-cuda-core)
  configure_file(${M}/${m}.json ${S}/${m}.json COPYONLY)
endforeach()
file(TOUCH ${S}/compiler.ptx ${S}/compiler-cuda-core.ptx)
attnrt_check_test(attn-manifest-check-compiler EXIT 0
  REGEX "compiler-sm90a.json: valid, 4 kernels for sm_90a, PTX [^@NL@]*compiler.ptx@NL@[^@NL@]*compiler-sm80-cuda-core.json: valid, 3 kernels for sm_80"
  ARGS ${S}/compiler-sm90a.json ${S}/compiler-sm80-cuda-core.json)
attnrt_check_test(attn-manifest-check-samples EXIT 0
  REGEX "sample.json: valid, 6 kernels for sm_80.*grad-group.json: valid, 4 kernels for sm_80.*sm100a.json: valid, 1 kernel for sm_100a"
  ARGS ${S}/sample.json ${S}/grad.json ${S}/grad-group.json ${S}/wrong.json
    ${S}/wrong-grad.json ${S}/wrong-grad-group.json ${S}/fault.json
    ${S}/oom.json ${S}/missing-kernel.json ${S}/sm100a.json ${S}/varlen.json
    ${S}/varlen-wrong.json)
# Packed kernels as the compiler writes them (test/manifests/varlen.json:
# every size at run time with lse and dropout; static sizes, no lse).
configure_file(${M}/varlen.json ${S}/varlen-compiler.json COPYONLY)
file(TOUCH ${S}/varlen.ptx)
attnrt_check_test(attn-manifest-check-varlen EXIT 0
  REGEX "varlen-compiler.json: valid, 2 kernels for sm_90a, PTX [^@NL@]*varlen.ptx"
  ARGS ${S}/varlen-compiler.json)
# Packed backward groups (test/manifests/varlen-grad.json: a forward with
# its atomic group at run-time sizes; a static separate group).
configure_file(${M}/varlen-grad.json ${S}/varlen-grad.json COPYONLY)
file(TOUCH ${S}/varlen-grad.ptx)
attnrt_check_test(attn-manifest-check-varlen-grad EXIT 0
  REGEX "varlen-grad.json: valid, 7 kernels for sm_90a, PTX [^@NL@]*varlen-grad.ptx"
  ARGS ${S}/varlen-grad.json)
# Split-KV forward groups (split_kv + combine with the partial workspaces):
# static with a backward group naming the forward group; run-time batch and
# key length; split counts decided at launch (codegen.splits null,
# codegen.split_rule, num_splits), and that form broken.
foreach(m split-kv split-kv-runtime split-kv-launch)
  configure_file(${M}/${m}.json ${S}/${m}.json COPYONLY)
  file(TOUCH ${S}/${m}.ptx)
endforeach()
attnrt_check_test(attn-manifest-check-split-kv EXIT 0
  REGEX "split-kv.json: valid, 4 kernels for sm_90a, PTX [^@NL@]*split-kv.ptx@NL@[^@NL@]*split-kv-runtime.json: valid, 2 kernels for sm_90a[^@NL@]*@NL@[^@NL@]*split-kv-launch.json: valid, 4 kernels for sm_90a"
  ARGS ${S}/split-kv.json ${S}/split-kv-runtime.json ${S}/split-kv-launch.json)
attnrt_check_test(attn-manifest-check-split-kv-no-rule EXIT 3
  REGEX "bad-split-kv-no-rule.json:26:120: kernel 'attn_fwd_split_kv_0': codegen.splits: null \\(the split count decided at launch\\) needs codegen.split_rule"
  ARGS ${M}/bad-split-kv-no-rule.json)
attnrt_check_test(attn-manifest-check-split-kv-num-splits EXIT 3
  REGEX "bad-split-kv-num-splits.json:27:17: kernel 'attn_fwd_split_kv_0': params: missing parameter 'num_splits' \\(codegen.splits is null: the split count S is decided at launch\\)"
  ARGS ${M}/bad-split-kv-num-splits.json)
attnrt_check_test(attn-manifest-check-split-kv-grid EXIT 3
  REGEX "bad-split-kv-grid.json:23:16: kernel 'attn_fwd_split_kv_0': grid\\[0\\]: expected null for a \"split_kv\" kernel whose split count is decided at launch"
  ARGS ${M}/bad-split-kv-grid.json)
# Paged forward groups (test/manifests/paged.json, by hand from
# docs/kernel-manifest.md; paged-runtime.json, attn-compile's, with a
# run-time batch and page count; paged-width.json, attn-compile's, with the
# block table's width at run time too); a variant with a key length is
# rejected.
foreach(m paged paged-runtime paged-width)
  configure_file(${M}/${m}.json ${S}/${m}.json COPYONLY)
  file(TOUCH ${S}/${m}.ptx)
endforeach()
attnrt_check_test(attn-manifest-check-paged EXIT 0
  REGEX "paged.json: valid, 2 kernels for sm_90a, PTX [^@NL@]*paged.ptx@NL@[^@NL@]*paged-runtime.json: valid, 2 kernels for sm_90a[^@NL@]*@NL@[^@NL@]*paged-width.json: valid, 2 kernels for sm_90a"
  ARGS ${S}/paged.json ${S}/paged-runtime.json ${S}/paged-width.json)
file(READ ${M}/paged.json ATTNRT_PAGED_TEXT)
string(REPLACE "\"key_len\": null" "\"key_len\": 192" ATTNRT_PAGED_TEXT
  "${ATTNRT_PAGED_TEXT}")
file(WRITE ${S}/paged-key-len.json "${ATTNRT_PAGED_TEXT}")
attnrt_check_test(attn-manifest-check-paged-key-len EXIT 3
  REGEX "paged-key-len.json:15:34: kernel 'attn_fwd_split_kv_0': key_len: expected null for a \"paged_attention\" kernel"
  ARGS ${S}/paged-key-len.json)
# Merge kernels (test/manifests/merge.json, by hand from
# docs/kernel-manifest.md "Merging partial results"); a variant with an
# attention field is rejected.
configure_file(${M}/merge.json ${S}/merge.json COPYONLY)
file(TOUCH ${S}/merge.ptx)
attnrt_check_test(attn-manifest-check-merge EXIT 0
  REGEX "merge.json: valid, 1 kernel for sm_90a, PTX [^@NL@]*merge.ptx"
  ARGS ${S}/merge.json)
file(READ ${M}/merge.json ATTNRT_MERGE_TEXT)
string(REPLACE "\"splits\": 4," "\"splits\": 4, \"causal\": \"none\","
  ATTNRT_MERGE_TEXT "${ATTNRT_MERGE_TEXT}")
file(WRITE ${S}/merge-causal.json "${ATTNRT_MERGE_TEXT}")
attnrt_check_test(attn-manifest-check-merge-causal EXIT 3
  REGEX "merge-causal.json:13:30: kernel 'attn_merge_0': causal: a \"merge_partials\" kernel has no such field"
  ARGS ${S}/merge-causal.json)
# TMA tensor maps (docs/kernel-manifest.md, "TMA tensor maps"):
# test/manifests/tensor-maps.json (runtime-sizes.json with maps over query,
# key and value appended) and tma.json (attn-compile --tma=on's manifest)
# are valid; a map before a size parameter is rejected.
foreach(m tensor-maps tma)
  configure_file(${M}/${m}.json ${S}/${m}.json COPYONLY)
endforeach()
file(TOUCH ${S}/attention.ptx)
attnrt_check_test(attn-manifest-check-tensor-maps EXIT 0
  REGEX "tensor-maps.json: valid, 1 kernel for sm_90a, PTX [^@NL@]*attention.ptx@NL@[^@NL@]*tma.json: valid, 1 kernel for sm_90a"
  ARGS ${S}/tensor-maps.json ${S}/tma.json)
file(READ ${M}/tensor-maps.json ATTNRT_TMA_TEXT)
string(REPLACE "        {\"name\": \"key_len\",   \"kind\": \"i32\"},\n" ""
  ATTNRT_TMA_TEXT "${ATTNRT_TMA_TEXT}")
string(REPLACE "\"swizzle\": 128}\n      ]"
  "\"swizzle\": 128},\n        {\"name\": \"key_len\", \"kind\": \"i32\"}\n      ]"
  ATTNRT_TMA_TEXT "${ATTNRT_TMA_TEXT}")
file(WRITE ${S}/tensor-map-order.json "${ATTNRT_TMA_TEXT}")
attnrt_check_test(attn-manifest-check-tensor-map-order EXIT 3
  REGEX "tensor-map-order.json:34:9: kernel 'attn_fwd_0': params\\[8\\]: a tensor map before params\\[11\\] \\('key_len'\\)"
  ARGS ${S}/tensor-map-order.json)
# Rejected, each with the position of the offending value (issue 17).
attnrt_check_test(attn-manifest-check-smem-limit EXIT 3
  REGEX "bad-smem-limit.json:21:32: kernel 'attn_fwd_0': dynamic_shared_memory: 4294967295 bytes, more than the 232448 bytes \\(227 KiB\\) a thread block can use on sm_90a"
  ARGS ${M}/bad-smem-limit.json)
attnrt_check_test(attn-manifest-check-tensor-core-no-smem EXIT 3
  REGEX "bad-tc-no-smem.json:60:32: kernel 'attn_bwd_dkdv_dq_0': dynamic_shared_memory: 0 bytes, but a \"dkdv_dq\" kernel on tensor cores"
  ARGS ${M}/bad-tc-no-smem.json)
attnrt_check_test(attn-manifest-check-forward-order EXIT 3
  REGEX "bad-forward-order.json:26:18: kernel 'attn_fwd_0': params\\[3\\]: expected parameter 'output' here, got 'lse' \\(the forward parameters, in order: query, key, value, output, lse\\)"
  ARGS ${M}/bad-forward-order.json)
attnrt_check_test(attn-manifest-check-ptx-dot EXIT 3
  REGEX "bad-ptx-dot.json:3:10: ptx: \".\" names a directory, not a PTX file"
  ARGS ${M}/bad-ptx-dot.json)
attnrt_check_test(attn-manifest-check-utf8 EXIT 3
  REGEX "bad-utf8.json:8:37: syntax error while parsing value - invalid string: ill-formed UTF-8 byte"
  ARGS ${M}/bad-utf8.json)
attnrt_check_test(attn-manifest-check-grid EXIT 3
  REGEX "bad-grid.json:20:15: kernel 'attn_fwd_0': grid: \\[2, 8, 1\\] does not match the problem: [^@NL@]* = \\[2, 8, 2\\]"
  ARGS ${M}/bad-grid.json)
# A "ptx" naming a directory passes the name check; the checker must not
# take the directory for the file.
file(READ ${M}/doc-example.json doc_example)
string(REPLACE "\"attention.ptx\"" "\"a-directory.ptx\"" doc_example
  "${doc_example}")
file(WRITE ${S}/ptx-directory.json "${doc_example}")
file(MAKE_DIRECTORY ${S}/a-directory.ptx)
attnrt_check_test(attn-manifest-check-ptx-directory EXIT 3
  REGEX "ptx-directory.json: the PTX file \"[^\"]*a-directory.ptx\" it names is a directory, not a PTX file"
  ARGS ${S}/ptx-directory.json)
attnrt_check_test(attn-manifest-check-missing-ptx EXIT 3
  REGEX "doc-example.json: the PTX file \"[^\"]*attention.ptx\" it names cannot be read: No such file or directory"
  ARGS ${M}/doc-example.json)

# --- GPU tests -------------------------------------------------------------
find_library(ATTNRT_REAL_LIBCUDA NAMES libcuda.so.1
  PATHS ENV LD_LIBRARY_PATH /usr/local/nvidia/lib64 /usr/local/nvidia/lib
        /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64
        /usr/lib /usr/lib/wsl/lib
  NO_DEFAULT_PATH)
if(ATTNRT_REAL_LIBCUDA)
  set(ATTNRT_GPU_TESTS_DEFAULT ON)
else()
  set(ATTNRT_GPU_TESTS_DEFAULT OFF)
endif()
option(ATTNRT_GPU_TESTS "Register the attn-run tests that need a GPU"
  ${ATTNRT_GPU_TESTS_DEFAULT})
if(ATTNRT_GPU_TESTS)
  attnrt_cli_test(attn-run-gpu-self-test GPU EXIT 0
    REGEX "attn-run --self-test: PASS" ARGS --self-test)
  attnrt_cli_test(attn-run-gpu-sample GPU EXIT 0
    REGEX "RESULT name=sample_gqa_bf16 dtype=bf16 B=2 Hq=8 Hkv=2 Lq=128 Lk=192 D=64 Dv=64 causal=bottom_right [^@NL@]* status=PASS"
    ARGS ${S}/sample.json --iters 5 --warmup 2)
  attnrt_cli_test(attn-run-gpu-one-kernel GPU EXIT 0
    REGEX "RESULT name=sample_decode_bf16 [^@NL@]*status=PASS@NL@@NL@attn-run: 1 kernel\\(s\\): 1 ok, 0 failed"
    ARGS ${S}/sample.json --kernel sample_decode_bf16 --iters 3)
  attnrt_cli_test(attn-run-gpu-wrong-results GPU EXIT 1
    REGEX "name=sample_wrong_scale_bf16 [^@NL@]*status=FAIL.*out-of-bounds write.*name=sample_oob_write_f32 [^@NL@]*status=FAIL"
    ARGS ${S}/wrong.json --iters 1 --warmup 0)
  attnrt_cli_test(attn-run-gpu-other-arch GPU EXIT 1
    REGEX "RESULT name=sample_gqa_bf16 [^@NL@]*status=ERROR.*attn-run: error: cuModuleLoadDataEx failed: CUDA_ERROR_[A-Z_]+ [^@NL@]*JIT compilation of '[^']*sample_kernels_100a.ptx' failed; JIT error log:@NL@"
    ARGS ${S}/sm100a.json)
  attnrt_cli_test(attn-run-gpu-out-of-memory GPU EXIT 1
    REGEX "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY \\(out of memory\\): allocating 128.00 GiB \\(137438953472 bytes\\) for '(query|key|value|output)' \\[64, 64, 131072, 128\\] bf16"
    ARGS ${S}/oom.json)
  attnrt_cli_test(attn-run-gpu-fault GPU EXIT 1
    REGEX "RESULT name=sample_illegal_address_f32 [^@NL@]*status=ERROR.*attn-run: error: kernel 'sample_illegal_address_f32': cuCtxSynchronize\\(\\) failed: CUDA_ERROR_ILLEGAL_ADDRESS.*the CUDA context is unusable after this error"
    ARGS ${S}/fault.json --iters 1)
  # Backward kernels: alone (output and lse from the reference forward) and
  # as training steps (forward kernel -> backward kernels).
  attnrt_cli_test(attn-run-gpu-grad GPU EXIT 0
    REGEX "RESULT name=sample_grad_dkdv_f32 op=attention_grad stage=dkdv [^@NL@]* repeat_identical=1 [^@NL@]*status=PASS.*RESULT name=sample_grad_dq_f32 op=attention_grad stage=dq [^@NL@]* repeat_identical=1 [^@NL@]*status=PASS.*RESULT name=sample_grad_dq_bf16 [^@NL@]*status=PASS.*RESULT name=sample_grad_dkdv_bf16 [^@NL@]*status=PASS@NL@@NL@attn-run: 6 kernel\\(s\\): 6 ok, 0 failed"
    ARGS ${S}/grad.json --iters 3 --warmup 1)
  attnrt_cli_test(attn-run-gpu-train GPU EXIT 0
    REGEX "TRAIN forward=sample_grad_fwd_f32 backward=sample_grad_dkdv_f32,sample_grad_dq_f32 dtype=f32 [^@NL@]* fwdbwd_ms=[0-9.]+ [^@NL@]* repeat_identical=1 status=PASS.*TRAIN forward=sample_grad_fwd_bf16 backward=sample_grad_dq_bf16,sample_grad_dkdv_bf16 [^@NL@]*status=PASS@NL@@NL@attn-run: 2 training step\\(s\\): 2 ok, 0 failed"
    ARGS ${S}/grad.json --train --iters 3 --warmup 1)
  attnrt_cli_test(attn-run-gpu-train-one GPU EXIT 0
    REGEX "RESULT name=sample_grad_fwd_bf16 [^@NL@]*status=PASS.*TRAIN forward=sample_grad_fwd_bf16 [^@NL@]*status=PASS@NL@@NL@attn-run: 1 training step\\(s\\): 1 ok, 0 failed"
    ARGS ${S}/grad.json --train --kernel sample_grad_dq_bf16 --iters 2)
  attnrt_cli_test(attn-run-gpu-wrong-grad GPU EXIT 1
    REGEX "grad_key: max rel err [^@NL@]*<-- FAIL.*RESULT name=sample_grad_wrong_dkdv_f32 [^@NL@]*status=FAIL.*NOT bit-identical \\(grad_query 1 of 6144 elements differ\\)  <-- FAIL.*RESULT name=sample_grad_flaky_dq_f32 [^@NL@]*repeat_identical=0 [^@NL@]*status=FAIL"
    ARGS ${S}/wrong-grad.json --iters 1 --warmup 0)
  attnrt_cli_test(attn-run-gpu-wrong-grad-train GPU EXIT 1
    REGEX "TRAIN forward=sample_grad_fwd_f32 [^@NL@]* repeat_identical=0 status=FAIL"
    ARGS ${S}/wrong-grad.json --train --iters 1 --warmup 0)
  # A backward group (prep -> dkdv_dq -> dq_convert with workspaces): alone,
  # through --kernel of one of its kernels, as a training step, and with a
  # prep kernel that leaves dq_accum as the runtime's NaN poison.
  attnrt_cli_test(attn-run-gpu-grad-group GPU EXIT 0
    REGEX "backward group sample_bwd_0: sample_group_prep_bf16 \\(prep\\), sample_group_dkdv_dq_bf16 \\(dkdv_dq\\), sample_group_dq_convert_bf16 \\(dq_convert\\), launched in this order.*workspaces: row_dot \\[2, 6, 64\\] f32, lse_log2 \\[2, 6, 64\\] f32, dq_accum \\[2, 6, 33, 64\\] f32.*repeat launch of group 'sample_bwd_0' on the same inputs: .*RESULT name=sample_group_prep_bf16 op=attention_grad stage=prep group=sample_bwd_0 [^@NL@]* tflops=nan [^@NL@]*status=PASS@NL@RESULT name=sample_group_dkdv_dq_bf16 [^@NL@]* dk_err=[^@NL@]*status=PASS@NL@RESULT name=sample_group_dq_convert_bf16 [^@NL@]* dq_err=[^@NL@]*status=PASS@NL@GROUP name=sample_bwd_0 kernels=sample_group_prep_bf16,sample_group_dkdv_dq_bf16,sample_group_dq_convert_bf16 stages=prep,dkdv_dq,dq_convert [^@NL@]* deterministic=0 [^@NL@]* ms=[0-9.]+ tflops=[0-9.]+ [^@NL@]*status=PASS@NL@@NL@attn-run: 4 kernel\\(s\\): 4 ok, 0 failed"
    ARGS ${S}/grad-group.json --iters 3 --warmup 1)
  attnrt_cli_test(attn-run-gpu-grad-group-kernel GPU EXIT 0
    REGEX "--kernel sample_group_dq_convert_bf16: running its whole backward group 'sample_bwd_0': sample_group_prep_bf16 \\(prep\\), .*GROUP name=sample_bwd_0 [^@NL@]*status=PASS@NL@@NL@attn-run: 3 kernel\\(s\\): 3 ok, 0 failed"
    ARGS ${S}/grad-group.json --kernel sample_group_dq_convert_bf16 --iters 2)
  attnrt_cli_test(attn-run-gpu-grad-group-train GPU EXIT 0
    REGEX "TRAIN forward=sample_grad_fwd_bf16 backward=sample_group_prep_bf16,sample_group_dkdv_dq_bf16,sample_group_dq_convert_bf16 [^@NL@]*status=PASS@NL@@NL@attn-run: 1 training step\\(s\\): 1 ok, 0 failed"
    ARGS ${S}/grad-group.json --train --iters 3 --warmup 1)
  attnrt_cli_test(attn-run-gpu-wrong-grad-group GPU EXIT 1
    REGEX "grad_query \\(sample_group_dq_convert_bf16\\): max rel err [^@NL@]*<-- FAIL.*RESULT name=sample_group_prep_nozero_bf16 [^@NL@]*status=FAIL.*GROUP name=sample_bwd_0 [^@NL@]*status=FAIL"
    ARGS ${S}/wrong-grad-group.json --iters 1 --warmup 0)
  # Packed kernels: a random split (every size at run time; static sizes),
  # given lengths with empty sequences on either side, a long-tail draw
  # drawn again for each --repeat, and a kernel drawing its dropout bits at
  # its sequence's dense coordinates instead of the packed ones.
  attnrt_cli_test(attn-run-gpu-varlen GPU EXIT 0
    REGEX "RESULT name=sample_varlen_bf16 op=varlen_attention dtype=bf16 B=5 Hq=8 Hkv=2 Tq=700 Tk=900 [^@NL@]*status=PASS.*RESULT name=sample_varlen_static_f16 op=varlen_attention dtype=f16 B=3 Hq=4 Hkv=4 Tq=300 Tk=500 [^@NL@]*lse=0 [^@NL@]*status=PASS@NL@@NL@attn-run: 2 kernel\\(s\\): 2 ok, 0 failed"
    ARGS ${S}/varlen.json --sizes batch=5,query_len=700,key_len=900 --iters 3
      --warmup 1)
  attnrt_cli_test(attn-run-gpu-varlen-given GPU EXIT 0
    REGEX "query lengths \\[0, 130, 1, 64, 65\\]@NL@  key lengths   \\[10, 0, 200, 64, 1\\].*-inf mismatches 0, NaN 0@NL@  rows with no allowed key: 1552 of 2080.*RESULT name=sample_varlen_bf16 [^@NL@]*status=PASS"
    ARGS ${S}/varlen.json --kernel sample_varlen_bf16
      --seqlens-q=0,130,1,64,65 --seqlens-k=10,0,200,64,1 --iters 2)
  attnrt_cli_test(attn-run-gpu-varlen-longtail GPU EXIT 0
    REGEX "repeat 2 of 2, seed 2.*packed \\(varlen_attention\\): 40 sequences.*RESULT name=sample_varlen_bf16 [^@NL@]*status=PASS.*2 repeat\\(s\\) with fresh inputs: 0 failed"
    ARGS ${S}/varlen.json --kernel sample_varlen_bf16
      --seqlens-dist=longtail:40:1:700 --iters 2 --repeat 2)
  attnrt_cli_test(attn-run-gpu-varlen-wrong-dropout GPU EXIT 1
    REGEX "output: max rel err [^@NL@]*<-- FAIL.*RESULT name=sample_varlen_dense_dropout_bf16 op=varlen_attention [^@NL@]*status=FAIL"
    ARGS ${S}/varlen-wrong.json --seqlens-q=100,37,200 --iters 1)
  attnrt_cli_test(attn-run-gpu-kernel-not-in-ptx GPU EXIT 1
    REGEX "kernel 'sample_not_there' not found in '[^']*sample_kernels_80.ptx'"
    ARGS ${S}/missing-kernel.json --iters 1)
endif()
