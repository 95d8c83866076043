"""Compiling problems with attn-compile, cached on disk.

The kernels of a problem are compiled on first use by running `attn-compile`
on the IR of `Problem.train_ir`, into a cache directory keyed by
`Problem.cache_key` (which includes a hash of the attn-compile binary, so a
new compiler never reuses an old entry). A second process finds the entry
and pays nothing. Entries are written to a temporary directory and renamed
into place, so concurrent processes never see half an entry.

Where things are looked up:
  attn-compile:  $ATTNOPT_COMPILER, then `attn-compile` on PATH, then the
                 repository's build/bin (a source checkout)
  cache:         $ATTNOPT_CACHE_DIR, else $XDG_CACHE_HOME/attnopt, else
                 ~/.cache/attnopt

Without attn-compile, entries are still found when the cache's
`compiler-id` file (written by every compile) names the compiler that wrote
them: a cache filled elsewhere (python3 -m attnopt.precompile) and copied.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

from .problem import AttnoptError, Problem

_REPO = Path(__file__).resolve().parents[2]


def cache_dir() -> Path:
    env = os.environ.get("ATTNOPT_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return Path(base) / "attnopt"


def find_compiler() -> Optional[Path]:
    env = os.environ.get("ATTNOPT_COMPILER")
    if env:
        return Path(env) if Path(env).is_file() else None
    found = shutil.which("attn-compile")
    if found:
        return Path(found)
    local = _REPO / "build" / "bin" / "attn-compile"
    return local if local.is_file() else None


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def compiler_identity(compiler: Path) -> str:
    """The attn-compile binary's content hash (memoized per size/mtime)."""
    st = compiler.stat()
    return _file_digest(str(compiler.resolve()), st.st_size, st.st_mtime_ns)


def entry_for(problem: Problem, compiler: Optional[Path] = None) -> Path:
    """The cache entry of `problem`, compiling it when it is not there.

    Returns the entry's directory, which holds train.mlir, train.ptx,
    train.json (the manifest) and problem.json.
    """
    compiler = compiler or find_compiler()
    root = cache_dir()
    if compiler is None:
        # A cache copied from a machine with the compiler: its compiler-id
        # file names the compiler that wrote the entries.
        recorded = root / "compiler-id"
        if recorded.is_file():
            entry = root / problem.cache_key(recorded.read_text().strip())
            if (entry / "train.json").is_file():
                return entry
        raise AttnoptError(
            "attnopt: attn-compile was not found (set ATTNOPT_COMPILER, put it "
            "on PATH, or build the repository with scripts/build.sh); it is "
            f"needed to compile kernels that are not in the cache at {root}")
    identity = compiler_identity(compiler)
    entry = root / problem.cache_key(identity)
    if (entry / "train.json").is_file():
        return entry
    root.mkdir(parents=True, exist_ok=True)
    (root / "compiler-id").write_text(identity + "\n")
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=root))
    try:
        (tmp / "train.mlir").write_text(problem.train_ir())
        (tmp / "problem.json").write_text(
            json.dumps(problem.as_dict(), indent=1, sort_keys=True) + "\n")
        cmd = [str(compiler), str(tmp / "train.mlir"), f"--chip={problem.chip}",
               *problem.compile_options(),
               "-o", str(tmp / "train.ptx"), f"--manifest={tmp / 'train.json'}"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise AttnoptError(
                f"attnopt: attn-compile failed ({run.returncode}) on the IR in "
                f"{tmp / 'train.mlir'}:\n{run.stderr.strip()}\n"
                f"(command: {' '.join(cmd)})")
        try:
            os.rename(tmp, entry)
        except OSError:
            # Another process installed the same entry first: use theirs.
            if not (entry / "train.json").is_file():
                raise
            shutil.rmtree(tmp, ignore_errors=True)
    except AttnoptError:
        # Keep the IR for the error message's reference.
        raise
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return entry
