#!/usr/bin/env python3
"""Launches generated kernels on PyTorch tensors (CUDA driver API through
ctypes), so that ours and PyTorch's backends run on the same tensors, on the
same stream, timed by the same timer.

    from torch_launch import KernelSet
    ks = KernelSet("bench/generated/hd/grid-hd/x.json")   # manifest + PTX
    fwd = ks.kernel("attn_fwd_0")
    fwd.launch(query=q, key=k, value=v, output=o, lse=lse)

Parameters are bound by name as the manifest lists them
(docs/kernel-manifest.md): tensors by their data pointer (contiguous, of the
manifest's shape and dtype: checked before the launch), `u64` scalars as
Python ints. A `tensor_map` parameter (a TMA descriptor) is never given: each
launch encodes it from the tensor it maps (encode_tensor_map). A manifest
with run-time sizes (null batch / query_len / key_len) is bound to values
first, `KernelSet(path, sizes={"batch": 2, "query_len": 1000, "key_len":
77})`: shapes and grid as kernels-runtime's
bindSizes computes them, and the `i32` size parameters filled in. A packed
kernel ("op": "varlen_attention") is bound to its sequences' lengths,
`KernelSet(path, seqlens=(lens_q, lens_k))` (bind_varlen). A split-KV
forward group (stages "split_kv" then "combine", docs/kernel-manifest.md
"Split-KV forward groups") is launched like one forward kernel by its group
name, `ks.kernel("attn_fwd_0").launch(query=q, key=k, value=v, output=o,
lse=lse)` (ForwardGroup: it allocates the f32 workspaces itself); a paged
cache's group ("op": "paged_attention") likewise, with `key_cache=`,
`value_cache=`, `block_table=` and `cache_seqlens=` (int32) for key/value;
its run-time batch, page count and block-table width (null "batch",
"num_pages", "max_pages_per_seq") come from `sizes={"batch": B,
"num_pages": P, "max_pages_per_seq": W}` (bind_paged_sizes), and the split
rule's key length is its capacity max_pages_per_seq * page_size.
A group whose split count is decided at launch (codegen.splits null,
codegen.split_rule) takes it from `sizes={"num_splits": S}`, else from the
split rule with the current device's SM count (split_rule_count, as
kernels-runtime's splitRuleCount); the bound stages have it as grid x of
split_kv, dimension 1 of the workspaces, codegen.splits and the `i32`
num_splits. Launches go to PyTorch's current stream; nothing synchronizes.
This is a benchmark helper, not the runtime library issue 22 asks for.
"""
import copy
import ctypes
import json
import os

import torch

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
          "i1": torch.bool, "i8": torch.int8, "i32": torch.int32}
_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8

_cuda = None


def _driver():
    global _cuda
    if _cuda is None:
        _cuda = ctypes.CDLL("libcuda.so.1")
        torch.zeros(1, device="cuda")  # the primary context, made current
    return _cuda


def _check(rc, what):
    if rc != 0:
        name = ctypes.c_char_p()
        _driver().cuGetErrorName(rc, ctypes.byref(name))
        raise RuntimeError(f"{what}: CUDA error {rc} ({name.value.decode() if name.value else '?'})")


# The manifest's "tensor_map" parameters (docs/kernel-manifest.md, "TMA
# tensor maps"), as kernels-runtime encodes them (TensorMapEncode.cpp):
# CUtensorMapDataType and CUtensorMapSwizzle values from cuda.h, and the
# fixed choices: element strides 1, CU_TENSOR_MAP_INTERLEAVE_NONE (0),
# CU_TENSOR_MAP_L2_PROMOTION_L2_256B (3), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
# (0: out-of-bounds elements read as zeros).
_TMA_DATA_TYPES = {"f16": 6, "f32": 7, "bf16": 9}
_TMA_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
_TMA_INTERLEAVE_NONE = 0
_TMA_L2_PROMOTION_256B = 3
_TMA_OOB_FILL_NONE = 0
_TMA_BYTES, _TMA_ALIGN = 128, 64


def _encode_tiled():
    """cuTensorMapEncodeTiled with its argument types (cuda.h)."""
    f = _driver().cuTensorMapEncodeTiled
    if f.argtypes is None:
        u32, u64p, u32p = ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint32)
        f.argtypes = [ctypes.c_void_p, ctypes.c_int, u32, ctypes.c_void_p, u64p, u64p, u32p, u32p,
                      ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        f.restype = ctypes.c_int
    return f


def tensor_map_layout(tmap, shape, element_bytes):
    """(dims, strides) of tensor map `tmap` over a contiguous row-major
    tensor of `shape`, innermost dimension first: dims[i] = shape[r-1-i],
    strides[i] = the bytes of dimension r-2-i (kernels-runtime's
    tensorMapLayout). Raises ValueError where TMA cannot take it."""
    rank = len(shape)
    if not 1 <= rank <= 5 or len(tmap["box"]) != rank:
        raise ValueError(f"{tmap['name']}: rank {rank} with a box of {len(tmap['box'])} extents")
    dims = list(reversed(shape))
    if any(not 1 <= d <= 2 ** 32 for d in dims):
        raise ValueError(f"{tmap['name']}: dimensions {list(shape)} of {tmap['tensor']} "
                         "must be 1 to 2^32")
    strides, stride = [], element_bytes
    for d in dims[:-1]:
        stride *= d
        if stride % 16 or stride >= 2 ** 40:
            raise ValueError(f"{tmap['name']}: a stride of {tmap['tensor']} {list(shape)} is "
                             f"{stride} bytes (TMA takes multiples of 16 below 2^40)")
        strides.append(stride)
    return dims, strides


def encode_tensor_map(tmap, tensor_param, t):
    """The CUtensorMap of "tensor_map" parameter `tmap` over tensor `t` (the
    parameter `tensor_param` it maps, whole, as bound), encoded as
    kernels-runtime does. Returns (buffer, address): the map lies at
    `address`, 64-byte aligned inside `buffer`, which must outlive the
    launch."""
    if t.data_ptr() % 16:
        raise ValueError(f"{tmap['name']}: {tensor_param['name']} is not 16-byte aligned "
                         f"(address {t.data_ptr():#x})")
    dims, strides = tensor_map_layout(tmap, list(t.shape), t.element_size())
    rank = len(dims)
    buf = ctypes.create_string_buffer(_TMA_BYTES + _TMA_ALIGN - 1)
    address = -(-ctypes.addressof(buf) // _TMA_ALIGN) * _TMA_ALIGN
    _check(_encode_tiled()(
        address, _TMA_DATA_TYPES[tensor_param["dtype"]], rank, t.data_ptr(),
        (ctypes.c_uint64 * rank)(*dims), (ctypes.c_uint64 * max(1, rank - 1))(*strides),
        (ctypes.c_uint32 * rank)(*tmap["box"]), (ctypes.c_uint32 * rank)(*([1] * rank)),
        _TMA_INTERLEAVE_NONE, _TMA_SWIZZLE[tmap["swizzle"]], _TMA_L2_PROMOTION_256B,
        _TMA_OOB_FILL_NONE), f"cuTensorMapEncodeTiled {tmap['name']}")
    return buf, address


SIZE_NAMES = ("batch", "query_len", "key_len")
# The split count of a split-KV group that decides it at launch.
SPLITS = "num_splits"
# The run-time sizes of a paged group (its key length is per sequence).
PAGED_SIZE_NAMES = ("batch", "num_pages", "max_pages_per_seq")


def parse_sizes(text):
    """"batch=2,query_len=100,key_len=37,num_pages=300,num_splits=5" as a
    dict (and max_pages_per_seq= for a paged group's table width)."""
    sizes = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name not in SIZE_NAMES + PAGED_SIZE_NAMES + (SPLITS,) \
                or not value.isdigit() or int(value) < 1:
            raise ValueError(f"bad size '{part}' (expected batch=, query_len=, key_len=, "
                             f"num_pages=, max_pages_per_seq=, num_splits= > 0)")
        sizes[name] = int(value)
    return sizes


def splits_at_launch(spec):
    """Whether `spec` is a split-KV stage whose split count is still to be
    decided (codegen.splits null)."""
    cg = spec.get("codegen") or {}
    return spec.get("stage") in ("split_kv", "combine") and "splits" in cg and cg["splits"] is None


def split_rule_count(rule, grid_y, batch, key_len, sm_count):
    """The split rule (docs/kernel-manifest.md, "Split-KV forward groups";
    kernels-runtime's splitRuleCount): S = max(1, min(max_splits,
    floor(blocks_per_sm * SMs / (grid[1] * B)), ceil(Lk / min_chunk_keys)))
    with `grid_y` = grid[1] of the split_kv stage."""
    by_wave = rule["blocks_per_sm"] * sm_count // (grid_y * batch)
    by_keys = -(-key_len // rule["min_chunk_keys"])
    return max(1, min(rule["max_splits"], by_wave, by_keys))


def bind_splits(spec, splits):
    """Split-KV stage `spec` (split count decided at launch, sizes bound)
    with S = `splits`: grid x of split_kv, dimension 1 of the workspaces
    partial_output and partial_lse, codegen.splits and the `i32`
    num_splits."""
    max_splits = spec["codegen"]["split_rule"]["max_splits"]
    if not 1 <= splits <= max_splits:
        raise ValueError(f"{spec['name']}: num_splits = {splits}: expected 1 to {max_splits} "
                         f"(codegen.split_rule.max_splits)")
    b = copy.deepcopy(spec)
    b["codegen"]["splits"] = splits
    if b["stage"] == "split_kv":
        b["grid"][0] = splits
    for p in b["params"]:
        if p["kind"] == "i32" and p["name"] == SPLITS:
            p["value"] = splits
        elif p.get("role") == "workspace" and p["shape"][1] is None:
            p["shape"][1] = splits
    return b


def bind_sizes(spec, sizes):
    """The kernel spec with its run-time sizes (None) replaced by `sizes`
    (docs/kernel-manifest.md, "Run-time sizes"); unchanged without any."""
    if all(spec[n] is not None for n in SIZE_NAMES):
        return spec
    b = copy.deepcopy(spec)
    for n in SIZE_NAMES:
        if b[n] is None:
            if n not in (sizes or {}):
                raise KeyError(f"{spec['name']}: run-time size {n} not given")
            b[n] = sizes[n]
    # A split-KV stage's null grid x and workspace dimension 1 are its split
    # count (bind_splits).
    split_stage = b.get("stage") in ("split_kv", "combine")
    for p in b["params"]:
        if p["kind"] == "i32":
            if p["name"] != SPLITS:
                p["value"] = b[p["name"]]
        elif p["kind"] == "tensor":
            keys = p["name"] in ("key", "value", "grad_key", "grad_value")
            # A workspace's query rows: the length rounded up to whole blocks.
            mult = p.get("query_len_multiple", 1)
            for d, s in enumerate(p["shape"]):
                if s is None and not (split_stage and p.get("role") == "workspace" and d == 1):
                    p["shape"][d] = (b["batch"] if d == 0 else b["key_len"] if d == 3 or keys
                                     else -(-b["query_len"] // mult) * mult)
    for m in ("mask", "dropout_mask"):
        if b.get(m):
            full = (b["batch"], b["query_heads"], b["query_len"], b["key_len"])
            b[m]["shape"] = [full[d] if s is None else s for d, s in enumerate(b[m]["shape"])]
    if b["grid"][0] is None and not split_stage:
        cg = b["codegen"]
        over_keys = b.get("stage") in ("dkdv", "dkdv_dq")
        tile = cg["block_kv"] if over_keys else cg["block_q"]
        length = b["key_len"] if over_keys else b["query_len"]
        b["grid"][0] = cg.get("key_block_parts", 1) * -(-length // tile)
    # z is the batch; y only for a split-KV combine stage, (rows / 4, B, 1).
    for d in (1, 2):
        if b["grid"][d] is None:
            b["grid"][d] = b["batch"]
    return b


def bind_paged_sizes(spec, sizes):
    """Paged stage `spec` ("op": "paged_attention") with its run-time batch,
    page count and block-table width (None) replaced by `sizes`
    (docs/kernel-manifest.md, "Paged key/value caches"): dimension 0 of
    key_cache and value_cache is num_pages, dimension 1 of block_table the
    width, dimension 0 of the other tensors the batch; the grid's null y or
    z the batch; the `i32` size parameters. The split count is
    bind_splits'."""
    if all(spec[n] is not None for n in PAGED_SIZE_NAMES):
        return spec
    b = copy.deepcopy(spec)
    for n in PAGED_SIZE_NAMES:
        if b[n] is None:
            if n not in (sizes or {}):
                raise KeyError(f"{spec['name']}: run-time size {n} not given")
            b[n] = sizes[n]
    for p in b["params"]:
        if p["kind"] == "i32":
            if p["name"] != SPLITS:
                p["value"] = b[p["name"]]
        elif p["kind"] == "tensor":
            cache = p["name"] in ("key_cache", "value_cache")
            if p["shape"][0] is None:
                p["shape"][0] = b["num_pages"] if cache else b["batch"]
            if p["name"] == "block_table" and p["shape"][1] is None:
                p["shape"][1] = b["max_pages_per_seq"]
    for d in (1, 2):
        if b["grid"][d] is None:
            b["grid"][d] = b["batch"]
    return b


def split_rule_key_len(spec):
    """The key length of the split rule: the launch's, or a paged group's
    capacity max_pages_per_seq * page_size."""
    if spec.get("op") == "paged_attention":
        return spec["max_pages_per_seq"] * spec["page_size"]
    return spec["key_len"]


VARLEN_SIZES = ("batch", "total_query_tokens", "total_key_tokens")


def varlen_grid_x(lens_q, block_q):
    """Grid x of a packed kernel: enough query blocks for the longest
    sequence (blocks past a shorter sequence's queries exit), at least one."""
    return max(1, -(-max(lens_q) // block_q))


def packed_workspace_rows(total_query_tokens, batch):
    """W, the rows per head of a packed backward group's workspaces
    (docs/kernel-manifest.md, "Packed backward kernels")."""
    return -(-total_query_tokens // 4) * 4 + 68 * batch


def bind_varlen(spec, seqlens):
    """A packed kernel's spec (forward or backward stage) bound to its
    sequences' (query lengths, key lengths) (kernels-runtime/README.md,
    "Packed kernels"): B and the token totals, the tensor shapes, the grid
    and the `i32` size parameters. Static sizes in the manifest must agree
    with the lengths."""
    if seqlens is None:
        raise KeyError(f"{spec['name']}: a packed kernel needs its sequence lengths (seqlens=)")
    lens_q, lens_k = (list(map(int, s)) for s in seqlens)
    if not lens_q or len(lens_q) != len(lens_k) or min(lens_q + lens_k) < 0:
        raise ValueError(f"{spec['name']}: need as many query as key lengths, at least one, none negative")
    b = copy.deepcopy(spec)
    given = dict(zip(VARLEN_SIZES, (len(lens_q), sum(lens_q), sum(lens_k))))
    for n, v in given.items():
        if b[n] is not None and b[n] != v:
            raise ValueError(f"{spec['name']}: the manifest has {n} = {b[n]}, the lengths give {v}")
        b[n] = v
    tq, tk = b["total_query_tokens"], b["total_key_tokens"]
    w = packed_workspace_rows(tq, b["batch"])
    rows = {"query": tq, "output": tq, "lse": tq, "grad_output": tq, "grad_query": tq,
            "key": tk, "value": tk, "grad_key": tk, "grad_value": tk,
            "cu_seqlens_q": b["batch"] + 1, "cu_seqlens_k": b["batch"] + 1,
            "row_dot": w, "lse_log2": w, "dq_accum": w}
    for p in b["params"]:
        if p["kind"] == "i32":
            p["value"] = b[p["name"]]
        elif p["kind"] == "tensor":  # lse [Hq, Tq]: its null is the token dim too
            p["shape"] = [rows[p["name"]] if s is None else s for s in p["shape"]]
    g = b["grid"]
    if b.get("stage") in ("dkdv", "dkdv_dq"):  # over key blocks (y = Hkv)
        x = varlen_grid_x(lens_k, b["codegen"]["block_kv"]) * b["codegen"].get("key_block_parts", 1)
    else:
        x = varlen_grid_x(lens_q, b["codegen"]["block_q"])
    b["grid"] = [x if g[0] is None else g[0], b["query_heads"] if g[1] is None else g[1],
                 b["batch"] if g[2] is None else g[2]]
    return b


class Kernel:
    def __init__(self, module, spec):
        self.spec = spec
        self.name = spec["name"]
        self.func = ctypes.c_void_p()
        _check(_driver().cuModuleGetFunction(ctypes.byref(self.func), module,
                                             self.name.encode()),
               f"cuModuleGetFunction {self.name}")
        self.smem = int(spec.get("dynamic_shared_memory") or 0)
        if self.smem > 48 * 1024:
            _check(_driver().cuFuncSetAttribute(
                self.func, _CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                self.smem), f"cuFuncSetAttribute {self.name}")
        if (spec.get("codegen") or {}).get("schedule") == "persistent":
            self._cap_persistent_grid()

    def _cap_persistent_grid(self):
        """A persistent kernel loops over its tiles with stride gridDim.x:
        launch at most the blocks this GPU holds at once, as kernels-runtime's
        KernelLauncher does (on a GPU with fewer SMs than --sm-count the
        manifest's count would run in two waves)."""
        per_sm = ctypes.c_int(0)
        b = self.spec["block"]
        _check(_driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(per_sm), self.func, b[0] * b[1] * b[2], ctypes.c_size_t(self.smem)),
            f"cuOccupancyMaxActiveBlocksPerMultiprocessor {self.name}")
        sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
        grid = list(self.spec["grid"])
        grid[0] = max(1, min(grid[0], per_sm.value * sms))
        self.spec = dict(self.spec, grid=grid)

    def params(self):
        return self.spec["params"]

    def launch(self, **args):
        values, addresses = [], []
        by_name = {p["name"]: p for p in self.spec["params"]}
        for p in self.spec["params"]:
            if p["kind"] == "tensor_map":
                # Derived from the tensor it maps (given before it), passed
                # by value: the kernel parameter is the 128-byte map.
                buf, address = encode_tensor_map(p, by_name[p["tensor"]], args[p["tensor"]])
                values.append(buf)
                addresses.append(address)
                continue
            if p["kind"] == "i32" and p["name"] not in args:
                args[p["name"]] = p["value"]  # bound by bind_sizes
            if p["name"] not in args:
                raise KeyError(f"{self.name}: parameter {p['name']} not given")
            a = args[p["name"]]
            if p["kind"] == "tensor":
                want = tuple(p["shape"])
                if tuple(a.shape) != want or a.dtype != DTYPES[p["dtype"]] \
                        or not a.is_contiguous() or not a.is_cuda:
                    raise ValueError(f"{self.name}: {p['name']} must be a contiguous CUDA tensor "
                                     f"{want} {p['dtype']}, got {tuple(a.shape)} {a.dtype}")
                v = ctypes.c_uint64(a.data_ptr())
            elif p["kind"] == "i32":
                v = ctypes.c_int32(int(a))
            else:
                v = ctypes.c_uint64(int(a))
            values.append(v)
            addresses.append(ctypes.addressof(v))
        ptrs = (ctypes.c_void_p * len(addresses))(*addresses)
        g, b = self.spec["grid"], self.spec["block"]
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        _check(_driver().cuLaunchKernel(self.func, g[0], g[1], g[2], b[0], b[1], b[2],
                                        self.smem, stream, ptrs, None),
               f"cuLaunchKernel {self.name}")


class ForwardGroup:
    """The split_kv and combine kernels of a split-KV forward group, launched
    in manifest order on the current stream as one forward kernel:
    `launch(query=, key=, value=, [mask=], output=, [lse=])`. The workspaces
    partial_output and partial_lse are f32 tensors allocated at the first
    launch (torch.empty: split_kv writes every element) and reused; pass them
    to use your own. `spec` is the combine stage's without the workspaces
    (the group's parameters, as a forward kernel's)."""

    def __init__(self, kernels):
        self.kernels = kernels  # manifest order: split_kv, combine
        self.name = kernels[0].spec["group"]
        last = kernels[-1].spec
        self.spec = dict(last, name=self.name,
                         params=[p for p in last["params"] if p.get("role") != "workspace"])
        self.workspaces = None

    def params(self):
        return self.spec["params"]

    def launch(self, **args):
        if self.workspaces is None:
            self.workspaces = {p["name"]: torch.empty(p["shape"], device="cuda", dtype=DTYPES[p["dtype"]])
                               for p in self.kernels[0].params() if p.get("role") == "workspace"}
        given = {**self.workspaces, **args}
        for kern in self.kernels:
            kern.launch(**{p["name"]: given[p["name"]] for p in kern.params() if p["name"] in given})


class KernelSet:
    """The kernels of one manifest (and its PTX file, beside it)."""

    def __init__(self, manifest_path, sizes=None, seqlens=None):
        with open(manifest_path) as f:
            self.manifest = json.load(f)
        # A paged cache's group ("op": "paged_attention") takes a batch and
        # page count (its key_len is null because each sequence's length is
        # the cache_seqlens tensor's); a merge kernel ("merge_partials") has
        # no attention sizes at all.
        self.manifest["kernels"] = [
            bind_varlen(k, seqlens) if k.get("op") in ("varlen_attention", "varlen_attention_grad")
            else bind_paged_sizes(k, sizes) if k.get("op") == "paged_attention"
            else k if k.get("op") == "merge_partials"
            else bind_sizes(k, sizes)
            for k in self.manifest["kernels"]]
        self._bind_splits(sizes)
        ptx_path = os.path.join(os.path.dirname(manifest_path), self.manifest["ptx"])
        with open(ptx_path, "rb") as f:
            ptx = f.read() + b"\0"
        self.module = ctypes.c_void_p()
        _check(_driver().cuModuleLoadData(ctypes.byref(self.module), ctypes.c_char_p(ptx)),
               f"cuModuleLoadData {ptx_path}")
        self.specs = {k["name"]: k for k in self.manifest["kernels"]}
        # Split-KV forward groups: group name -> stage names, manifest order.
        self.groups = {}
        for k in self.manifest["kernels"]:
            if k.get("op", "attention") in ("attention", "paged_attention") and k.get("group"):
                self.groups.setdefault(k["group"], []).append(k["name"])

    def _bind_splits(self, sizes):
        """Binds the split-KV groups that decide their split count at launch
        to sizes["num_splits"], else to the split rule of each group's
        split_kv stage (the first) on the current device."""
        given = (sizes or {}).get(SPLITS)
        kernels = self.manifest["kernels"]
        groups = {}
        for i, k in enumerate(kernels):
            if k.get("group") and splits_at_launch(k):
                groups.setdefault(k["group"], []).append(i)
        if given is not None and not groups:
            raise ValueError(f"num_splits = {given} given, but no split-KV group of this manifest "
                             f"decides its split count at launch (codegen.splits null)")
        sm_count = None
        for members in groups.values():
            split = kernels[members[0]]
            if given is not None:
                s = int(given)
            else:
                if sm_count is None:
                    dev = torch.cuda.current_device()
                    sm_count = torch.cuda.get_device_properties(dev).multi_processor_count
                s = split_rule_count(split["codegen"]["split_rule"], split["grid"][1],
                                     split["batch"], split_rule_key_len(split), sm_count)
            for i in members:
                kernels[i] = bind_splits(kernels[i], s)

    def kernel(self, name):
        """Kernel `name`, or the ForwardGroup called `name`."""
        if name in self.groups:
            return ForwardGroup([Kernel(self.module, self.specs[n]) for n in self.groups[name]])
        return Kernel(self.module, self.specs[name])

    def forward(self):
        """The (first) forward's name (dense or packed): a forward kernel's,
        or a split-KV forward group's (kernel() gives a ForwardGroup)."""
        k = next(k for k in self.manifest["kernels"]
                 if k.get("op", "attention") in ("attention", "varlen_attention", "paged_attention"))
        return k.get("group") or k["name"]
