# cmake -DATTN_RUN=... -DARGS=a|b|c -DEXIT=n [-DREGEX=...] [-DLIBDIR=...]
#       -P RunAndCheck.cmake
# Runs attn-run (or another tool: attn-manifest-check) and checks its exit
# status and (stdout + stderr) output.
string(REPLACE "|" ";" args "${ARGS}")
# @NL@ in the regex stands for a newline (kept out of the test command line).
string(REPLACE "@NL@" "\n" REGEX "${REGEX}")
if(LIBDIR)
  # The stub driver first: attn-run then starts on any machine and cuInit
  # reports CUDA_ERROR_STUB_LIBRARY.
  set(ENV{LD_LIBRARY_PATH} "${LIBDIR}")
endif()
execute_process(COMMAND ${ATTN_RUN} ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("---- stdout\n${out}---- stderr\n${err}---- exit status ${rc}")
if(NOT "${rc}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit status ${EXIT}, got ${rc}")
endif()
if(NOT "${REGEX}" STREQUAL "" AND NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "the output does not match: ${REGEX}")
endif()
