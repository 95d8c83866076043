"""ctypes binding of the runtime library (kernels-runtime, attnrt/RuntimeC.h).

The package calls the C API of libattnopt_runtime.so through ctypes, so it
has no compiled extension of its own: any Python 3.9+ works, and the same
library serves C++ programs (AttnOpt::Runtime). No torch here: pointers
and streams are plain integers.

The library is looked up in $ATTNOPT_RUNTIME_LIB (a file), next to the
attn-compile that compiles the kernels (<prefix>/lib), then in the
repository's build directories (a source checkout).
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
from pathlib import Path
from typing import Dict, Optional, Sequence

from .problem import AttnoptError

_LIB_NAME = "libattnopt_runtime.so"
_API_VERSION = 3  # the oldest library API this package works with
_REPO = Path(__file__).resolve().parents[2]

_lock = threading.Lock()
_lib: Optional[ctypes.CDLL] = None


def _candidates():
    env = os.environ.get("ATTNOPT_RUNTIME_LIB")
    if env:
        yield Path(env)
        return
    from .compiler import find_compiler
    compiler = find_compiler()
    if compiler is not None:
        yield compiler.resolve().parent.parent / "lib" / _LIB_NAME
    yield _REPO / "build" / "lib" / _LIB_NAME
    yield _REPO / "kernels-runtime" / "build" / _LIB_NAME


def library() -> ctypes.CDLL:
    """The loaded runtime library (loaded once)."""
    global _lib
    with _lock:
        if _lib is None:
            tried = []
            for path in _candidates():
                tried.append(str(path))
                if path.is_file():
                    try:
                        _lib = _declare(ctypes.CDLL(str(path)))
                    except OSError as e:
                        # The library opens libcuda itself on first use,
                        # so this is a broken build or a missing C++ runtime.
                        raise AttnoptError(
                            f"attnopt: cannot load the runtime library {path}: "
                            f"{e}") from e
                    break
            else:
                raise AttnoptError(
                    "attnopt: the runtime library libattnopt_runtime.so was "
                    "not found (set ATTNOPT_RUNTIME_LIB, or build kernels-runtime); "
                    "looked at: " + ", ".join(tried))
            version = _lib.attnrt_api_version()
            if version < _API_VERSION:
                raise AttnoptError(
                    f"attnopt: the runtime library has API version {version}, "
                    f"this package needs {_API_VERSION} or later (rebuild "
                    "kernels-runtime)")
        return _lib


class Sizes(ctypes.Structure):
    """attnrt_sizes: a launch's run-time sizes (0 where not given) and the
    host copy of a packed batch's offsets."""
    _fields_ = [("batch", ctypes.c_int64), ("query_len", ctypes.c_int64),
                ("key_len", ctypes.c_int64), ("num_splits", ctypes.c_int64),
                ("num_pages", ctypes.c_int64),
                ("cu_seqlens_q", ctypes.POINTER(ctypes.c_int32)),
                ("cu_seqlens_k", ctypes.POINTER(ctypes.c_int32)),
                ("offsets_count", ctypes.c_int64),
                ("max_pages_per_seq", ctypes.c_int64)]


def make_sizes(batch: int = 0, query_len: int = 0, key_len: int = 0,
               num_splits: int = 0, num_pages: int = 0,
               max_pages_per_seq: int = 0,
               cu_seqlens_q: Optional[Sequence[int]] = None,
               cu_seqlens_k: Optional[Sequence[int]] = None) -> Sizes:
    """A Sizes (the offsets copied into arrays the structure keeps)."""
    s = Sizes(batch, query_len, key_len, num_splits, num_pages)
    s.max_pages_per_seq = max_pages_per_seq
    if cu_seqlens_q is not None or cu_seqlens_k is not None:
        if cu_seqlens_q is None or cu_seqlens_k is None or \
                len(cu_seqlens_q) != len(cu_seqlens_k):
            raise AttnoptError("attnopt: cu_seqlens_q and cu_seqlens_k go "
                               "together, with the same length")
        n = len(cu_seqlens_q)
        s._offsets = ((ctypes.c_int32 * n)(*cu_seqlens_q),
                      (ctypes.c_int32 * n)(*cu_seqlens_k))
        s.cu_seqlens_q, s.cu_seqlens_k = s._offsets
        s.offsets_count = n
    return s


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    c = ctypes
    p = c.c_void_p
    sigs = {
        "attnrt_last_error": (c.c_char_p, []),
        "attnrt_api_version": (c.c_int, []),
        "attnrt_library_load": (c.c_int, [c.c_char_p, c.c_int, c.POINTER(p)]),
        "attnrt_library_free": (None, [p]),
        "attnrt_library_find": (c.c_int, [p, c.c_char_p, c.POINTER(p)]),
        "attnrt_library_forward": (c.c_int, [p, c.POINTER(p)]),
        "attnrt_library_backward": (c.c_int, [p, c.c_char_p, c.POINTER(p)]),
        "attnrt_kernel_set_name": (c.c_char_p, [p]),
        "attnrt_library_num_sets": (c.c_int, [p]),
        "attnrt_library_set_name": (c.c_char_p, [p, c.c_int]),
        "attnrt_arguments_new": (p, []),
        "attnrt_arguments_free": (None, [p]),
        "attnrt_arguments_set": (c.c_int, [p, c.c_char_p, c.c_uint64]),
        "attnrt_arguments_dropout": (None, [p, c.c_uint64, c.c_uint64]),
        "attnrt_arguments_sizes": (None, [p, c.c_int64, c.c_int64, c.c_int64]),
        "attnrt_arguments_offsets": (
            None, [p, c.POINTER(c.c_int32), c.POINTER(c.c_int32), c.c_int64]),
        "attnrt_workspace_bytes": (c.c_int, [p, p, c.POINTER(c.c_uint64)]),
        "attnrt_launch": (c.c_int, [p, p, p, c.c_uint64, c.c_uint64]),
        "attnrt_launch_pointers": (
            c.c_int, [p, c.c_int, c.POINTER(c.c_char_p), c.POINTER(c.c_uint64),
                      c.c_uint64, c.c_uint64, p, c.c_uint64, c.c_uint64]),
        "attnrt_workspace_bytes_sized": (
            c.c_int, [p, c.POINTER(Sizes), c.POINTER(c.c_uint64)]),
        "attnrt_launch_pointers_sized": (
            c.c_int, [p, c.c_int, c.POINTER(c.c_char_p), c.POINTER(c.c_uint64),
                      c.POINTER(Sizes), c.c_uint64, c.c_uint64, p, c.c_uint64,
                      c.c_uint64]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


class RuntimeFailure(AttnoptError):
    """A failure reported by the runtime library; `code` is its status
    (1 CUDA failure, 2 no CUDA driver/GPU, 3 bad input)."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


def _check(status: int) -> None:
    if status != 0:
        message = library().attnrt_last_error().decode(errors="replace")
        raise RuntimeFailure(status, "attnopt: " + message)


@functools.lru_cache(maxsize=256)
def _names_array(names):
    """The C array of parameter names (built once per tuple of names)."""
    return (ctypes.c_char_p * len(names))(*(n.encode() for n in names))


class KernelSet:
    """A kernel set of a loaded Library (borrowed: valid while it lives)."""

    def __init__(self, owner: "Library", handle: int, name: str):
        self._owner = owner
        self._handle = handle
        self.name = name

    def _arguments(self, tensors: Dict[str, int], seed: int, offset: int):
        lib = library()
        args = lib.attnrt_arguments_new()
        try:
            for name, ptr in tensors.items():
                _check(lib.attnrt_arguments_set(args, name.encode(), ptr))
            lib.attnrt_arguments_dropout(args, seed, offset)
        except BaseException:
            lib.attnrt_arguments_free(args)
            raise
        return args

    def workspace_bytes(self, tensors: Dict[str, int],
                        sizes: Optional[Sizes] = None) -> int:
        """The workspace the set needs (for `sizes` where it has run-time
        sizes or a packed batch)."""
        lib = library()
        if sizes is not None:
            n = ctypes.c_uint64()
            _check(lib.attnrt_workspace_bytes_sized(
                self._handle, ctypes.byref(sizes), ctypes.byref(n)))
            return n.value
        args = self._arguments(tensors, 0, 0)
        try:
            n = ctypes.c_uint64()
            _check(lib.attnrt_workspace_bytes(self._handle, args, ctypes.byref(n)))
            return n.value
        finally:
            lib.attnrt_arguments_free(args)

    def launch(self, tensors: Dict[str, int], stream: int = 0,
               workspace: int = 0, workspace_bytes: int = 0,
               seed: int = 0, offset: int = 0,
               sizes: Optional[Sizes] = None) -> None:
        """Launches the set on `stream` (a CUstream as an integer) with
        device pointers by parameter name, and `sizes` where the set takes
        run-time sizes or a packed batch's offsets: one foreign call."""
        names = _names_array(tuple(tensors))
        ptrs = (ctypes.c_uint64 * len(names))(*tensors.values())
        if sizes is None:
            _check(library().attnrt_launch_pointers(
                self._handle, len(names), names, ptrs, seed, offset,
                stream or None, workspace, workspace_bytes))
            return
        _check(library().attnrt_launch_pointers_sized(
            self._handle, len(names), names, ptrs, ctypes.byref(sizes), seed,
            offset, stream or None, workspace, workspace_bytes))


class Library:
    """The kernels of one manifest, loaded on one device."""

    def __init__(self, manifest: str, device: int = 0):
        lib = library()
        handle = ctypes.c_void_p()
        _check(lib.attnrt_library_load(str(manifest).encode(), device,
                                       ctypes.byref(handle)))
        self._handle = handle.value
        self.manifest = str(manifest)

    def __del__(self):
        if getattr(self, "_handle", None) and _lib is not None:
            _lib.attnrt_library_free(self._handle)
            self._handle = None

    def names(self) -> Sequence[str]:
        lib = library()
        return [lib.attnrt_library_set_name(self._handle, i).decode()
                for i in range(lib.attnrt_library_num_sets(self._handle))]

    def _set(self, status: int, handle: ctypes.c_void_p) -> KernelSet:
        _check(status)
        name = library().attnrt_kernel_set_name(handle).decode()
        return KernelSet(self, handle.value, name)

    def find(self, name: str) -> KernelSet:
        """The set called `name` (a group, or a kernel alone)."""
        h = ctypes.c_void_p()
        return self._set(library().attnrt_library_find(
            self._handle, name.encode(), ctypes.byref(h)), h)

    def forward(self) -> KernelSet:
        """The only forward set."""
        h = ctypes.c_void_p()
        return self._set(library().attnrt_library_forward(
            self._handle, ctypes.byref(h)), h)

    def backward(self, forward: str = "") -> KernelSet:
        """The only backward set of forward set `forward` ("" any)."""
        h = ctypes.c_void_p()
        return self._set(library().attnrt_library_backward(
            self._handle, forward.encode(), ctypes.byref(h)), h)
