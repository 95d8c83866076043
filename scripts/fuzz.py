#!/usr/bin/env python3
"""Mutation fuzz of the project's own test inputs through its tools (issue 17).

  scripts/fuzz.py [--seconds N] [--seed N] [--build DIR] [--keep DIR]
                  [--only SUBSTRING]

Two fuzzers share the time budget:
  ir        takes the .mlir inputs under test/, mutates one to three things
            (a tensor dimension to 0, 1, an odd length, 2^31 - 1, 2^31,
            2^62; an integer or float attribute to an edge value; a line
            dropped or duplicated; two dims swapped) and runs it through
            attention-opt with each pass (verify, decompose, select-tiles
            with report, tile, fuse, attn-to-gpu, attn-raise-pipeline),
            attn-compile --emit=gpu, and attn-cpu-run and attn-raise-check
            (the small ones only);
  manifest  mutates the manifests under kernels-runtime/test/manifests (a
            number to 0, -1, 2^31, 2^32 - 1, 2^63; a string emptied or
            given invalid UTF-8; a key dropped; an array shortened) and runs
            attn-manifest-check on it.
A tool may reject any input with a diagnostic (any exit status): the
failures are a signal (segfault, abort, SIGFPE), an exit status above 128,
or running past the per-run timeout (10 s). Each failing input is written
to --keep (default build/fuzz-failures) with the command that failed; the
exit status is the number of failures. The seed is printed (fresh unless
given), so a failure can be reproduced.
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EDGE_DIMS = ["0", "1", "3", "17", "65", "129", "2147483647", "2147483648",
             "4611686018427387904"]
EDGE_INTS = ["0", "-1", "1", "2147483648", "4611686018427387904",
             "9223372036854775807"]
EDGE_FLOATS = ["0.0", "-1.0", "1.0e+38", "0x7FC00000", "1.0e-30", "0.999"]
PASSES = ["", "--attn-decompose", "--attn-select-tiles=chip=sm_90a report",
          "--attn-tile", "--attn-fuse", "--attn-to-gpu", "--attn-raise-pipeline"]
TIMEOUT = 10


def mutate_ir(text, rng):
    for _ in range(rng.randint(1, 3)):
        choice = rng.random()
        if choice < 0.45:
            dims = list(re.finditer(r"(?<=[<x])(\d+)(?=x)", text))
            if dims:
                m = rng.choice(dims)
                text = text[:m.start()] + rng.choice(EDGE_DIMS) + text[m.end():]
        elif choice < 0.6:
            ints = list(re.finditer(r"(?<=[ =:<])(-?\d+)(?= : i64|, |>)", text))
            if ints:
                m = rng.choice(ints)
                text = text[:m.start()] + rng.choice(EDGE_INTS) + text[m.end():]
        elif choice < 0.72:
            floats = list(re.finditer(r"-?\d+\.\d+(e[+-]?\d+)?(?= : f32)", text))
            if floats:
                m = rng.choice(floats)
                text = text[:m.start()] + rng.choice(EDGE_FLOATS) + text[m.end():]
        elif choice < 0.86:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            if rng.random() < 0.5:
                del lines[i]
            else:
                lines.insert(i, lines[i])
            text = "\n".join(lines)
        else:
            m = re.search(r"tensor<(\d+)x(\d+)x(\d+)x(\d+)x", text[rng.randrange(max(1, len(text) // 2)):])
            if m:
                a, b2 = m.group(1), m.group(3)
                text = text.replace(m.group(0), f"tensor<{b2}x{m.group(2)}x{a}x{m.group(4)}x", 1)
    return text


def upstream_parser_hazard(text):
    """Whether `text` has a tensor.from_elements whose result type holds
    more than 2^20 elements: upstream MLIR's parser resolves its operands
    against one type per element (a 2^31-element type hangs mlir-opt itself
    before any of our code runs), so such a mutation finds nothing of ours."""
    for m in re.finditer(r"tensor\.from_elements[^\n]*: tensor<((?:\d+x)+)", text):
        n = 1
        for d in m.group(1).rstrip("x").split("x"):
            n *= int(d)
        if n > 1 << 20:
            return True
    return False


def mutate_json(value, rng):
    """One mutation somewhere in the JSON tree (in place where possible)."""
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        r = rng.random()
        if r < 0.15:
            del value[key]
            return value
        value[key] = mutate_json(value[key], rng)
        return value
    if isinstance(value, list) and value:
        r = rng.random()
        if r < 0.15:
            return value[:-1]
        i = rng.randrange(len(value))
        value[i] = mutate_json(value[i], rng)
        return value
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return rng.choice([0, -1, 2**31, 2**32 - 1, 2**63, 1e300, 0.5])
    if isinstance(value, str):
        return rng.choice(["", ".", "\udcff", value * 3, "x" * 1000, "/"])
    return value


def run(cmd, stdin_path=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout", b""
    if p.returncode < 0 or p.returncode > 128:
        return f"signal/status {p.returncode}", p.stderr[-2000:]
    return None, b""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--keep", default=None)
    ap.add_argument("--only", default="",
                    help="fuzz only the IR inputs whose path contains this "
                         "(e.g. varlen), and no manifests")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    keep = args.keep or os.path.join(args.build, "fuzz-failures")
    bindir = os.path.join(args.build, "bin")
    opt = os.path.join(bindir, "attention-opt")
    compile_ = os.path.join(bindir, "attn-compile")
    cpu = os.path.join(bindir, "attn-cpu-run")
    raise_check = os.path.join(bindir, "attn-raise-check")
    check = None
    for c in [os.path.join(bindir, "attn-manifest-check"),
              os.path.join(args.build, "kernels-runtime", "attn-manifest-check"),
              os.path.join(ROOT, "kernels-runtime", "build", "attn-manifest-check")]:
        if os.path.exists(c):
            check = c
            break
    # Inputs with attention ops, or front-end chains for the raising (linalg).
    irs = [f for f in glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)
           if args.only in f and any(k in open(f, errors="replace").read()
                                     for k in ("attn.", "linalg."))]
    manifests = [] if args.only else sorted(
        glob.glob(os.path.join(ROOT, "kernels-runtime", "test", "manifests", "*.json")))
    if not irs and not manifests:
        print(f"fuzz.py: no input under test/ matches --only {args.only!r}")
        return 2
    print(f"fuzz.py: seed {seed}, {args.seconds:.0f} s, {len(irs)} IR inputs, "
          f"{len(manifests)} manifests" + ("" if check else " (no attn-manifest-check: IR only)"))
    tmp = tempfile.mkdtemp(prefix="attn-fuzz-")
    failures, runs = 0, 0
    deadline = time.time() + args.seconds
    while time.time() < deadline:
        use_manifest = check and manifests and rng.random() < 0.3
        if use_manifest:
            src = rng.choice(manifests)
            try:
                doc = json.load(open(src))
            except ValueError:
                continue
            for _ in range(rng.randint(1, 3)):
                doc = mutate_json(doc, rng)
            path = os.path.join(tmp, "m.json")
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                json.dump(doc, f, ensure_ascii=False)
            # The PTX next to it, so the checker gets past the file lookup.
            for ptx in glob.glob(os.path.join(os.path.dirname(src), "*.ptx")):
                shutil.copy(ptx, tmp)
            cmds = [[check, path]]
        else:
            src = rng.choice(irs)
            text = mutate_ir(open(src, errors="replace").read(), rng)
            if upstream_parser_hazard(text):
                continue
            path = os.path.join(tmp, "in.mlir")
            with open(path, "w") as f:
                f.write(text)
            cmds = [[opt, path, "-split-input-file", "-o", os.devnull] + ([p] if p else [])
                    for p in PASSES]
            cmds.append([compile_, path, "--emit=gpu", "-o", os.devnull])
            # The CPU runner only on small problems: a large valid one is
            # merely slow there, not a bug.
            sizes = [1]
            for m in re.finditer(r"tensor<((?:\d+x)+)", text):
                n = 1
                for d in m.group(1).rstrip("x").split("x"):
                    n *= int(d)
                sizes.append(n)
            if max(sizes) <= 1 << 16:
                cmds.append([cpu, path])
                # One function (the tool JIT-compiles each three times).
                funcs = re.findall(r"func\.func @([\w$.]+)", text)
                if funcs and os.path.exists(raise_check):
                    cmds.append([raise_check, path, "--runs=1",
                                 "--function=" + rng.choice(funcs)])
        for cmd in cmds:
            if time.time() >= deadline:
                break
            runs += 1
            why, err = run(cmd)
            if why:
                failures += 1
                os.makedirs(keep, exist_ok=True)
                name = os.path.join(keep, f"fail{failures:03d}{os.path.splitext(path)[1]}")
                shutil.copy(path, name)
                with open(name + ".cmd", "w") as f:
                    f.write(" ".join(cmd).replace(path, name) + f"\n# {why} (from {os.path.relpath(src, ROOT)}, seed {seed})\n")
                    f.write(err.decode(errors="replace"))
                print(f"FUZZ FAIL ({why}): {' '.join(os.path.basename(c) if c == cmd[0] else c for c in cmd)} "
                      f"on a mutation of {os.path.relpath(src, ROOT)} -> {name}")
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"fuzz.py: {runs} runs, {failures} failure(s) (seed {seed})")
    return min(failures, 100)


if __name__ == "__main__":
    sys.exit(main())
