"""Random problems for the GPU tests of attnopt, drawn from a seed.

    python3 tests/gpu_cases.py --seed S --count N -o cases.json [--chip sm_90a]

writes the cases (Problem fields plus how the test builds its mask) that
test_gpu.py runs; `python3 -m attnopt.precompile cases.json` compiles them
where attn-compile is (the GPU machine has no LLVM). Drawn fresh each run:
ragged lengths, lengths below one tile, Lq = 1 and Lk = 1, GQA and MQA,
D != Dv, every causal mode, windows, softcap, boolean and additive masks at
several broadcast shapes, f16 and bf16, and f32 through tf32 tensor cores
(f32_precision="tf32"). Besides: "sizes" cases (one
problem at several (batch, query_len, key_len) draws, with dynamic=True or
the automatic run-time sizes of dynamic=None; "compile_runtime_sizes" lists
the kernels the test expects attnopt to load, for precompile) and "varlen"
cases (packed batches, several draws of per-sequence lengths, empty
sequences included) and "paged" cases (attnopt.paged_attention: draws of
batch, pool size and cache lengths, empty and full caches included, page
sizes 16 to 256, GQA up to 8, new tokens 1 to 16) and "merge" cases
(attnopt.merge_partials: 1 to 64 parts, row shapes of rank 1 to 3).
"""

import argparse
import json
import math
import random
import sys


def draw_case(rng: random.Random, chip: str) -> dict:
    dtype = rng.choice(["f16", "bf16"])
    head_dim = rng.choice([64, 128, 64, 128, 32, 80, 96, 256])
    value_dim = head_dim if rng.random() < 0.8 else rng.choice([64, 128])
    kv_heads = rng.choice([1, 2, 4])
    query_heads = kv_heads * rng.choice([1, 1, 2, 4])
    batch = rng.choice([1, 2, 3])

    def length():
        return rng.choice([1, rng.randint(2, 63), rng.randint(64, 300),
                           rng.randint(300, 1100)])

    query_len, key_len = length(), length()
    case = dict(dtype=dtype, batch=batch, query_heads=query_heads,
                kv_heads=kv_heads, query_len=query_len, key_len=key_len,
                head_dim=head_dim, value_dim=value_dim,
                scale=float(_f32(1.0 / math.sqrt(head_dim))), chip=chip,
                causal=rng.choice(["none", "none", "top_left", "bottom_right"]))
    if rng.random() < 0.2:
        case["window"] = [rng.choice([-1, 0, 7, 64]), rng.choice([-1, 0, 5, 128])]
    if rng.random() < 0.2:
        case["softcap"] = rng.choice([5.0, 30.0])
        # tanh.approx.f32: scores within softcap * 8.1e-6, far below the
        # f16/bf16 tolerances.
        if rng.random() < 0.5:
            case["softcap_approx"] = True
    if rng.random() < 0.35:
        case["mask_dtype"] = rng.choice(["i1", "f32", dtype])
        if rng.random() < 0.7:
            # Per position, batch and head each full or broadcast.
            case["mask_shape"] = [rng.choice([batch, 1]),
                                  rng.choice([query_heads, 1]),
                                  query_len, key_len]
        else:
            # A key-padding mask: one row for all queries.
            case["mask_shape"] = [batch, 1, 1, key_len]
    if rng.random() < 0.2:
        case["deterministic"] = True
    if rng.random() < 0.15:
        # f32 on tf32 tensor cores (the exact CUDA-core kernel where its
        # tiles do not fit: D = 256 on sm_80).
        case["dtype"] = "f32"
        case["f32_precision"] = "tf32"
        if case.get("mask_dtype") in ("f16", "bf16"):
            case["mask_dtype"] = "f32"
    return case


RUNTIME_SIZES = ("batch", "query_len", "key_len")


def mask_shape_for(case: dict, batch: int, query_len: int, key_len: int):
    """The mask shape of a sizes case at one draw (its "mask_pattern" says
    which dimensions are full)."""
    full = (batch, case["query_heads"], query_len, key_len)
    return [f if p else 1 for f, p in zip(full, case["mask_pattern"])]


def expected_runtime_sizes(draws, dynamic) -> list:
    """The run-time size sets attnopt loads for the draws, in order: all
    three with dynamic=True; with None (automatic) each size that differs
    from the first draw's joins the set (ops._choose_runtime_sizes)."""
    if dynamic is True:
        return [list(RUNTIME_SIZES)]
    if isinstance(dynamic, list):
        return [[n for n in RUNTIME_SIZES if n in dynamic]]
    states, dims = [], set()
    for draw in draws:
        dims |= {n for n, a, b in zip(RUNTIME_SIZES, draws[0], draw) if a != b}
        state = [n for n in RUNTIME_SIZES if n in dims]
        if state and state not in states:
            states.append(state)
    return states


def sizes_case(case: dict, draws, dynamic) -> dict:
    """`case` run at each (batch, query_len, key_len) of `draws` through one
    family of kernels; the case's own sizes are the first draw's."""
    case = dict(case, purpose="sizes", dynamic=dynamic,
                size_draws=[list(d) for d in draws])
    case["batch"], case["query_len"], case["key_len"] = draws[0]
    if case.get("mask_dtype"):
        case["mask_pattern"] = [m != 1 for m in case["mask_shape"]]
        case["mask_shape"] = mask_shape_for(case, *draws[0])
    case["compile_runtime_sizes"] = expected_runtime_sizes(draws, dynamic)
    return case


def draw_sizes_case(rng: random.Random, chip: str) -> dict:
    case = draw_case(rng, chip)
    case.pop("deterministic", None)
    # Sizes >= 2 where a mask dimension is full, so that the mask's
    # broadcast pattern (part of the kernels' family) stays the same.
    lo = 2 if case.get("mask_dtype") else 1

    def length():
        return rng.choice([lo, rng.randint(2, 63), rng.randint(64, 300),
                           rng.randint(300, 1100)])

    dynamic = rng.choice([True, None, ["batch", "key_len"]])
    draws = [(rng.choice([lo, 2, 3]), length(), length()) for _ in range(4)]
    if isinstance(dynamic, list):
        # The query length stays static (e.g. decoding): one value.
        draws = [(b, draws[0][1], lk) for b, _, lk in draws]
    if dynamic is None:
        # Change one size at a time, as a server or a training loop does.
        draws = [draws[0]]
        for _ in range(3):
            b, lq, lk = draws[-1]
            which = rng.choice(RUNTIME_SIZES)
            b = rng.choice([lo, 2, 3, 5]) if which == "batch" else b
            lq = length() if which == "query_len" else lq
            lk = length() if which == "key_len" else lk
            draws.append((b, lq, lk))
    return sizes_case(case, draws, dynamic)


def draw_varlen_case(rng: random.Random, chip: str) -> dict:
    dtype = rng.choice(["f16", "bf16"])
    head_dim = rng.choice([64, 128, 64, 128, 32, 80, 96, 192, 256])
    value_dim = head_dim if rng.random() < 0.8 else rng.choice([64, 128])
    kv_heads = rng.choice([1, 2, 4])
    query_heads = kv_heads * rng.choice([1, 1, 2, 4])

    def length():
        return rng.choice([0, 1, rng.randint(2, 63), rng.randint(64, 300),
                           rng.randint(300, 900)]) if rng.random() < 0.95 else 0

    draws = []
    for _ in range(3):
        batch = rng.choice([1, 2, 3, 5, 8])
        draws.append([[length(), length()] for _ in range(batch)])
    case = dict(dtype=dtype, batch=None, query_heads=query_heads,
                kv_heads=kv_heads, query_len=None, key_len=None,
                head_dim=head_dim, value_dim=value_dim,
                scale=float(_f32(1.0 / math.sqrt(head_dim))), chip=chip,
                causal=rng.choice(["none", "top_left", "bottom_right"]),
                packed=True, purpose="varlen", size_draws=draws)
    if rng.random() < 0.2:
        case["window"] = [rng.choice([-1, 0, 7, 64]), rng.choice([-1, 0, 5, 128])]
    if rng.random() < 0.2:
        case["softcap"] = rng.choice([5.0, 30.0])
        if rng.random() < 0.5:
            case["softcap_approx"] = True
    if rng.random() < 0.2:
        case["deterministic"] = True
    return case


PAGED_SIZES = ("batch", "num_pages", "max_pages")


def paged_runtime_sizes(draws, width, dynamic) -> list:
    """The run-time sizes of the kernels each draw runs on: all three with
    dynamic=True; with None (automatic) those that changed from the first
    draw so far (docs/python.md)."""
    if dynamic:
        return [list(PAGED_SIZES)] * len(draws)
    first = (draws[0][0], draws[0][1], width)
    changed, out = set(), []
    for d in draws:
        now = (d[0], d[1], d[3] if len(d) > 3 else width)
        changed |= {n for n, a, b in zip(PAGED_SIZES, first, now) if a != b}
        out.append([n for n in PAGED_SIZES if n in changed])
    return out


def paged_case(fields: dict, draws, dynamic) -> dict:
    """A paged-cache case: `draws` of (batch, pages, lengths[, block-table
    width]) run with one `dynamic`; the first draw's sizes are the static
    problem (the width fields["max_pages"] where a draw has none), and the
    run-time kernels the test expects are listed for precompile."""
    b, p = draws[0][:2]
    expected = paged_runtime_sizes(draws, fields["max_pages"], dynamic)
    sets = []
    for s in expected:
        if s and s not in sets:
            sets.append(s)
    return dict(fields, op="paged_attention", purpose="paged", batch=b,
                num_pages=p, size_draws=draws, dynamic=dynamic,
                expected_runtime_sizes=expected, compile_runtime_sizes=sets)


def draw_paged_case(rng: random.Random, chip: str) -> dict:
    dtype = rng.choice(["f16", "bf16"])
    head_dim = rng.choice([64, 128, 128, 32, 80, 96, 192, 256])
    value_dim = head_dim if rng.random() < 0.8 else rng.choice([64, 128])
    kv_heads = rng.choice([1, 2, 4, 8])
    query_heads = kv_heads * rng.choice([1, 2, 4, 8])
    page_size = rng.choice([16, 32, 64, 128, 256])
    max_pages = rng.choice([1, 3, 8, 33])
    capacity = page_size * max_pages

    def lengths(batch):
        return [rng.choice([0, 1, rng.randint(1, capacity), capacity,
                            rng.randint(1, capacity)]) for _ in range(batch)]

    # Each draw changes the batch and the pool size from the first (so
    # that dynamic=None switches both to run-time sizes after it), and in
    # half the cases the block table's width (a server's table grows with
    # its longest sequence) from the second draw on.
    b0, p0 = rng.choice([1, 2, 3]), rng.choice([1, 7, 40])
    draws = [(b0, p0, lengths(b0))]
    grow = rng.random() < 0.5
    for i in range(2):
        b = rng.choice([n for n in (1, 2, 4, 6) if n != b0])
        p = rng.choice([n for n in (2, 9, 64, 300) if n != p0])
        if grow and i == 1:
            width = rng.choice([n for n in (1, 5, 40, 130) if n != max_pages])
            cap = width * page_size
            draws.append((b, p, [rng.choice([0, 1, rng.randint(1, cap), cap])
                                 for _ in range(b)], width))
        else:
            draws.append((b, p, lengths(b)))
    fields = dict(dtype=dtype, query_heads=query_heads, kv_heads=kv_heads,
                  query_len=rng.choice([1, 1, 2, 4, 16]), head_dim=head_dim,
                  value_dim=value_dim, page_size=page_size,
                  max_pages=max_pages,
                  scale=float(_f32(1.0 / math.sqrt(head_dim))), chip=chip,
                  causal=rng.choice(["none", "bottom_right", "bottom_right",
                                     "top_left"]))
    if rng.random() < 0.2:
        fields["window"] = [rng.choice([-1, 0, 7, 300]), rng.choice([-1, 0, 5])]
    if rng.random() < 0.2:
        fields["softcap"] = rng.choice([5.0, 30.0])
        if rng.random() < 0.5:
            fields["softcap_approx"] = True
    return paged_case(fields, draws, rng.choice([None, True]))


def draw_merge_case(rng: random.Random, chip: str) -> dict:
    """attnopt.merge_partials: S parts of rows [d...] of Dv values."""
    rank = rng.choice([1, 2, 3])
    rows = [rng.choice([1, 2, 3, 8, 33, 100]) for _ in range(rank)]
    partial = rng.choice(["f32", "f32", "bf16", "f16"])
    return dict(op="merge_partials", purpose="merge",
                splits=rng.choice([1, 2, 3, 7, 16, 64]), rows_shape=rows,
                value_dim=rng.choice([32, 64, 80, 128, 256, 8]),
                partial_dtype=partial,
                out_dtype=rng.choice([partial, "bf16", "f16", "f32"]),
                chip=chip)


def fixed_cases(chip: str) -> list:
    """Cases every run has: an f32 one for the finite-difference gradient
    check (the exact CUDA-core kernels), one for torch.compile, and an f32
    one with dropout (its own checks: the bits are the op's Philox stream,
    which no peer shares)."""
    return [
        dict(dtype="f32", batch=1, query_heads=2, kv_heads=1, query_len=37,
             key_len=45, head_dim=32, value_dim=32,
             scale=float(_f32(1 / math.sqrt(32))), chip=chip,
             causal="bottom_right", purpose="gradcheck"),
        dict(dtype="bf16", batch=2, query_heads=4, kv_heads=2, query_len=256,
             key_len=256, head_dim=64, value_dim=64, scale=0.125, chip=chip,
             causal="top_left", purpose="compile"),
        dict(dtype="f32", batch=1, query_heads=2, kv_heads=2, query_len=40,
             key_len=56, head_dim=32, value_dim=32,
             scale=float(_f32(1 / math.sqrt(32))), chip=chip, causal="none",
             dropout_p=0.25, purpose="dropout"),
        # f32 on tf32 tensor cores, every run: GQA, ragged lengths, D = 96.
        dict(dtype="f32", f32_precision="tf32", batch=2, query_heads=8,
             kv_heads=2, query_len=133, key_len=301, head_dim=96,
             value_dim=96, scale=float(_f32(1 / math.sqrt(96))), chip=chip,
             causal="bottom_right"),
        # Decoding: the key length grows, one query token (and a draft of
        # 16); the automatic run-time key length gives the split-KV group
        # whose split count is decided at launch.
        sizes_case(dict(dtype="bf16", query_heads=32, kv_heads=8,
                        head_dim=128, value_dim=128, scale=float(_f32(128**-0.5)),
                        chip=chip, causal="bottom_right"),
                   [(4, 1, 1000), (4, 1, 5000), (4, 1, 77), (4, 1, 1),
                    (4, 1, 20000)], None),
        sizes_case(dict(dtype="f16", query_heads=8, kv_heads=2, head_dim=64,
                        value_dim=64, scale=0.125, chip=chip,
                        causal="bottom_right"),
                   [(3, 16, 600), (3, 16, 2500), (1, 16, 33)], None),
        # The packed problem of test_gpu's argument errors (bad offsets are
        # the runtime's error), also run with opcheck.
        dict(dtype="bf16", batch=None, query_heads=4, kv_heads=2,
             query_len=None, key_len=None, head_dim=64, value_dim=64,
             scale=0.125, chip=chip, causal="none", packed=True,
             purpose="varlen", opcheck=True,
             size_draws=[[[16, 16], [0, 5], [70, 0], [1, 200]], [[300, 300]]]),
        # Serving: Llama-style GQA decoding from a paged pool whose batch,
        # size and block-table width change; opcheck and torch.compile too.
        dict(paged_case(
            dict(dtype="bf16", query_heads=32, kv_heads=8, query_len=1,
                 head_dim=128, value_dim=128, page_size=64, max_pages=40,
                 scale=float(_f32(128**-0.5)), chip=chip,
                 causal="bottom_right"),
            [(4, 100, [1, 2560, 700, 64]), (8, 300, [5, 900, 2559, 1, 0, 64,
                                                     65, 2000]),
             (2, 50, [2560, 333]),
             # The longest sequence passes the table: a wider one.
             (3, 400, [6400, 1, 3000], 100)], None), opcheck=True),
    ]


def _f32(x):
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--sizes-count", type=int, default=6)
    ap.add_argument("--varlen-count", type=int, default=8)
    ap.add_argument("--paged-count", type=int, default=6)
    ap.add_argument("--merge-count", type=int, default=4)
    ap.add_argument("--chip", default="sm_90a")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    cases = ([draw_case(rng, a.chip) for _ in range(a.count)]
             + [draw_sizes_case(rng, a.chip) for _ in range(a.sizes_count)]
             + [draw_varlen_case(rng, a.chip) for _ in range(a.varlen_count)]
             + [draw_paged_case(rng, a.chip) for _ in range(a.paged_count)]
             + [draw_merge_case(rng, a.chip) for _ in range(a.merge_count)]
             + fixed_cases(a.chip))
    with open(a.output, "w") as f:
        json.dump(cases, f, indent=1)
    print(f"gpu_cases: seed {seed}, {len(cases)} cases in {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
