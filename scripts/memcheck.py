#!/usr/bin/env python3
"""The project's tools under valgrind's memcheck, on the lit tests' own commands.

  scripts/memcheck.py [--seconds N] [--seed N] [--build DIR] [--only SUBSTRING]
                      [--list]

A pass that reads an op it has erased, or a value it never set, often gives
the right answer: the freed memory still holds the op until something else
is allocated there. Such a bug shows up as a rare crash on a loaded machine
(attn-fuse's deferred normalization read its own replaced op; CI caught it
once in many runs). Memcheck sees every such read, in the project's code and
in libMLIR's, on every run.

The commands are those of the lit tests (the `// RUN:` lines under test/):
each `attention-opt` and `attn-compile` command, before its first pipe, with
%s and %S bound to the test, its outputs sent to /dev/null, and attn-compile
stopped at the GPU dialect (`--emit=gpu`: the NVPTX back end is LLVM's, and
slow under valgrind). A test's expected diagnostics and exit status are
lit's business: here only memcheck's verdict counts (an invalid read or
write, a use of an uninitialized value, a bad free: exit status 99) and a
signal; a command still running after 10 minutes is stopped and said, without
a verdict. The commands run in a seeded random order until the time is up
(those of REGRESSIONS, where memcheck found a bug, first); the seed is
printed (fresh unless given) and the exit status is the number of failures.
Each failure's command and memcheck's report are written to
build/memcheck-failures.
"""
import argparse
import glob
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = ("attention-opt", "attn-compile")
MEMCHECK_ERROR = 99
# One command under memcheck is 20 to 50 times slower than without it.
TIMEOUT = 600
# Tests where memcheck found a bug: their commands run first, every time.
REGRESSIONS = (
    "test/Integration/raise/deferred-normalization.mlir",  # attn-fuse, 040a4c0
)


def run_lines(path):
    """The RUN commands of a lit test, continuation lines joined."""
    commands, pending = [], ""
    for line in open(path, errors="replace"):
        marker = line.find("RUN:")
        if marker < 0 or not line[:marker].strip().startswith("//"):
            continue
        text = line[marker + 4:].strip()
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        commands.append(pending + text)
        pending = ""
    return commands


def tool_command(run, path, bindir, scratch):
    """`run`'s first command as argv, if it is one of TOOLS and has no
    substitution left that this script cannot bind; else None."""
    try:
        words = shlex.split(run)
    except ValueError:
        return None
    if "|" in words:
        words = words[:words.index("|")]
    while words and words[0] == "not":
        words = words[1:]
    if not words or words[0] not in TOOLS:
        return None
    tool = words[0]
    argv = [os.path.join(bindir, tool)]
    i = 1
    while i < len(words):
        w = words[i]
        i += 1
        if w in ("-o", "--manifest") and i < len(words):
            i += 1
            argv += [w, os.path.join(scratch, "out") if w == "--manifest" else os.devnull]
            continue
        if w.startswith(("-o=", "--manifest=", "--emit=", "--cuda-path=")):
            if w.startswith("-o="):
                argv.append("-o=" + os.devnull)
            elif w.startswith("--manifest="):
                argv.append("--manifest=" + os.path.join(scratch, "out.json"))
            continue
        if w.startswith(("2>", ">", "<")) or w in ("&&", ";"):
            break
        w = w.replace("%s", path).replace("%S", os.path.dirname(path))
        if "%" in w:
            return None
        argv.append(w)
    if tool == "attn-compile":
        argv.append("--emit=gpu")
    return argv


def collect(only, bindir, scratch):
    """(test, argv) for every distinct tool command of the lit tests."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"),
                                 recursive=True)):
        if only not in path:
            continue
        seen = set()
        for run in run_lines(path):
            argv = tool_command(run, path, bindir, scratch)
            if argv and tuple(argv) not in seen:
                seen.add(tuple(argv))
                found.append((path, argv))
    return found


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", default="",
                    help="only the tests whose path contains this")
    ap.add_argument("--list", action="store_true",
                    help="print the commands and run nothing")
    args = ap.parse_args()
    valgrind = subprocess.run(["sh", "-c", "command -v valgrind"],
                              capture_output=True, text=True).stdout.strip()
    if not valgrind and not args.list:
        print("memcheck.py: valgrind is not installed (scripts/install-deps.sh "
              "installs it)")
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    bindir = os.path.join(args.build, "bin")
    scratch = tempfile.mkdtemp(prefix="attn-memcheck-")
    commands = collect(args.only, bindir, scratch)
    if not commands:
        print(f"memcheck.py: no tool command in the tests matching --only {args.only!r}")
        return 2
    if args.list:
        for _, argv in commands:
            print(" ".join(shlex.quote(a) for a in argv))
        return 0
    random.Random(seed).shuffle(commands)
    commands.sort(key=lambda c: os.path.relpath(c[0], ROOT) not in REGRESSIONS)
    print(f"memcheck.py: seed {seed}, {args.seconds:.0f} s, {len(commands)} "
          f"commands from the lit tests")
    keep = os.path.join(args.build, "memcheck-failures")
    failures, runs, unfinished = 0, 0, 0
    deadline = time.time() + args.seconds
    for test, argv in commands:
        if time.time() >= deadline:
            break
        cmd = [valgrind, "-q", f"--error-exitcode={MEMCHECK_ERROR}",
               "--num-callers=30"] + argv + ["--mlir-disable-threading"] * (
                   os.path.basename(argv[0]) == "attention-opt")
        # The last command may run past the budget by a minute, no more. A
        # command stopped by the budget or by TIMEOUT has no verdict: it is
        # said, not counted (hangs are the fuzz's business, without valgrind).
        limit = min(TIMEOUT, deadline - time.time() + 60)
        try:
            p = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=limit,
                               cwd=scratch)
        except subprocess.TimeoutExpired:
            if limit < TIMEOUT:
                break
            unfinished += 1
            print(f"memcheck.py: {os.path.basename(argv[0])} on "
                  f"{os.path.relpath(test, ROOT)} still running after "
                  f"{TIMEOUT} s under valgrind: stopped, no verdict")
            continue
        runs += 1
        why = ("memcheck error" if p.returncode == MEMCHECK_ERROR
               else f"signal {-p.returncode}" if p.returncode < 0 else None)
        report = p.stderr
        if not why:
            continue
        failures += 1
        os.makedirs(keep, exist_ok=True)
        name = os.path.join(keep, f"fail{failures:03d}.txt")
        with open(name, "wb") as f:
            f.write((" ".join(shlex.quote(a) for a in cmd) + f"\n# {why}\n").encode())
            f.write(report)
        print(f"MEMCHECK FAIL ({why}): {os.path.basename(argv[0])} on "
              f"{os.path.relpath(test, ROOT)} -> {name}")
        for line in report.decode(errors="replace").splitlines()[:6]:
            print("  " + line)
    print(f"memcheck.py: {runs} of {len(commands)} commands run, {failures} "
          f"failure(s)" + (f", {unfinished} stopped unfinished" if unfinished
                           else "") + f" (seed {seed})")
    return min(failures, 100)


if __name__ == "__main__":
    sys.exit(main())
