/*===- RuntimeC.h - the runtime API for C and foreign-function callers ---===*\
|*                                                                            *|
|* The C form of attnrt/Runtime.h, for C programs and for languages that     *|
|* call C (the Python package `attnopt` uses it through ctypes, so that it   *|
|* needs no compiled extension). Every function that can fail returns an     *|
|* attnrt_status (0 on success, else the attnrt::StatusCode) and leaves the  *|
|* message in attnrt_last_error() for the calling thread.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTNRT_RUNTIMEC_H
#define ATTNRT_RUNTIMEC_H

#include <stdint.h>

#if defined(__GNUC__)
#define ATTNRT_C_API __attribute__((visibility("default")))
#else
#define ATTNRT_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 0 ok, 1 CUDA failure, 2 no CUDA driver/GPU, 3 bad input. */
typedef int attnrt_status;

typedef struct attnrt_library attnrt_library;
typedef struct attnrt_kernel_set attnrt_kernel_set; /* owned by its library */
typedef struct attnrt_arguments attnrt_arguments;

/* The message of the last call on this thread that failed ("" if none). */
ATTNRT_C_API const char *attnrt_last_error(void);
/* The version of the API: 1; 2 since attnrt_sizes and the *_sized
   functions were added (a version-2 library serves version-1 callers); 3
   since attnrt_sizes ends with max_pages_per_seq (a caller built against
   version 2 passes a shorter attnrt_sizes: rebuild it). */
ATTNRT_C_API int attnrt_api_version(void);

/* Loads a manifest (and its PTX) on `device`; *out is null on failure. */
ATTNRT_C_API attnrt_status attnrt_library_load(const char *manifest, int device,
                                               attnrt_library **out);
ATTNRT_C_API void attnrt_library_free(attnrt_library *library);
/* A kernel set by name (a group, or a kernel alone). */
ATTNRT_C_API attnrt_status attnrt_library_find(const attnrt_library *library,
                                               const char *name,
                                               const attnrt_kernel_set **out);
/* The only forward set of the library, and the only backward set whose
   forward is `forward` (any when null or ""). */
ATTNRT_C_API attnrt_status attnrt_library_forward(
    const attnrt_library *library, const attnrt_kernel_set **out);
ATTNRT_C_API attnrt_status
attnrt_library_backward(const attnrt_library *library, const char *forward,
                        const attnrt_kernel_set **out);
/* The set's name (a group's, or the kernel's). */
ATTNRT_C_API const char *attnrt_kernel_set_name(const attnrt_kernel_set *set);
/* The number of kernel sets and the name of set `index` (valid while the
   library lives). */
ATTNRT_C_API int attnrt_library_num_sets(const attnrt_library *library);
ATTNRT_C_API const char *attnrt_library_set_name(const attnrt_library *library,
                                                 int index);

ATTNRT_C_API attnrt_arguments *attnrt_arguments_new(void);
ATTNRT_C_API void attnrt_arguments_free(attnrt_arguments *args);
/* A device pointer by parameter name (see attnrt::Arguments). */
ATTNRT_C_API attnrt_status attnrt_arguments_set(attnrt_arguments *args,
                                                const char *name,
                                                uint64_t device_pointer);
ATTNRT_C_API void attnrt_arguments_dropout(attnrt_arguments *args,
                                           uint64_t seed, uint64_t offset);
ATTNRT_C_API void attnrt_arguments_sizes(attnrt_arguments *args, int64_t batch,
                                         int64_t query_len, int64_t key_len);
/* The split count of a split-KV group that decides it at launch
   (attnrt::RuntimeSizes::splits; 0, the default: the split rule). Kept by
   attnrt_arguments_sizes and attnrt_arguments_num_pages. */
ATTNRT_C_API void attnrt_arguments_num_splits(attnrt_arguments *args,
                                              int64_t num_splits);
/* The page count of a paged cache whose "num_pages" is a run-time size
   (attnrt::RuntimeSizes::numPages; 0, the default: not given). Kept by
   attnrt_arguments_sizes. */
ATTNRT_C_API void attnrt_arguments_num_pages(attnrt_arguments *args,
                                             int64_t num_pages);
/* The block table's width of a paged cache whose "max_pages_per_seq" is a
   run-time size (attnrt::RuntimeSizes::maxPagesPerSeq; 0, the default: not
   given). Kept by attnrt_arguments_sizes. */
ATTNRT_C_API void attnrt_arguments_max_pages_per_seq(attnrt_arguments *args,
                                                     int64_t max_pages_per_seq);
/* The host copy of a packed batch's offsets, `count` (= B + 1) each. */
ATTNRT_C_API void attnrt_arguments_offsets(attnrt_arguments *args,
                                           const int32_t *cu_seqlens_q,
                                           const int32_t *cu_seqlens_k,
                                           int64_t count);

ATTNRT_C_API attnrt_status attnrt_workspace_bytes(const attnrt_kernel_set *set,
                                                  const attnrt_arguments *args,
                                                  uint64_t *bytes);
/* `stream` is a CUstream (0: the legacy default stream). */
ATTNRT_C_API attnrt_status attnrt_launch(const attnrt_kernel_set *set,
                                         const attnrt_arguments *args,
                                         void *stream, uint64_t workspace,
                                         uint64_t workspace_bytes);

/* attnrt_launch with the arguments given at once (one call for callers
   with a high per-call cost, as ctypes): `count` tensors by name and device
   pointer, the dropout seed and offset; no run-time sizes or offsets. */
ATTNRT_C_API attnrt_status attnrt_launch_pointers(
    const attnrt_kernel_set *set, int count, const char *const *names,
    const uint64_t *device_pointers, uint64_t seed, uint64_t offset,
    void *stream, uint64_t workspace, uint64_t workspace_bytes);

/* Everything of a launch besides its tensors and dropout stream, for the
   one-call functions below: the run-time sizes (attnrt::RuntimeSizes; 0
   where not given: a size the kernels have static needs none, a given one
   is checked against it) and the host copy of a packed batch's offsets
   (`offsets_count` = B + 1 each; null/0 for the other sets). */
typedef struct attnrt_sizes {
  int64_t batch, query_len, key_len;
  int64_t num_splits; /* 0: the split rule */
  int64_t num_pages;
  const int32_t *cu_seqlens_q, *cu_seqlens_k;
  int64_t offsets_count;
  int64_t max_pages_per_seq; /* a paged set's run-time block-table width */
} attnrt_sizes;

/* attnrt_workspace_bytes for the sizes in `sizes` (null: none given). */
ATTNRT_C_API attnrt_status attnrt_workspace_bytes_sized(
    const attnrt_kernel_set *set, const attnrt_sizes *sizes, uint64_t *bytes);
/* attnrt_launch_pointers with run-time sizes and offsets (null: none). */
ATTNRT_C_API attnrt_status attnrt_launch_pointers_sized(
    const attnrt_kernel_set *set, int count, const char *const *names,
    const uint64_t *device_pointers, const attnrt_sizes *sizes, uint64_t seed,
    uint64_t offset, void *stream, uint64_t workspace,
    uint64_t workspace_bytes);

#ifdef __cplusplus
}
#endif

#endif /* ATTNRT_RUNTIMEC_H */
