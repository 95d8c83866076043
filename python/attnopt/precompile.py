"""Compile problems into the cache ahead of time.

    python3 -m attnopt.precompile cases.json [--cache DIR] [--jobs N]

cases.json is a JSON list of Problem fields (attnopt.problem.Problem; null
for a run-time size), or of PagedProblem / MergeProblem fields for a case
with "op": "paged_attention" / "merge_partials" (attnopt.paged_problem,
attnopt.merge_problem). A case may also list,
under "compile_runtime_sizes", sets of sizes (of batch, query_len, key_len;
of batch, num_pages, max_pages for a paged case) to compile as run-time sizes
too: e.g. [["key_len"]] adds the kernels that attnopt.attention switches to
when a later call changes the key length (dynamic=None). Used
to fill a cache on a machine with attn-compile and copy it to one without
(a GPU machine that has no LLVM): there, attnopt finds the entries through
the cache's `compiler-id` file, which names the compiler that wrote them.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys

from . import compiler
from .merge_problem import MergeProblem
from .paged_problem import PagedProblem
from .problem import AttnoptError, Problem


def problems_from(path: str):
    with open(path) as f:
        cases = json.load(f)
    out = []
    for c in cases:
        kind = {"paged_attention": PagedProblem,
                "merge_partials": MergeProblem}.get(c.get("op"), Problem)
        fields = {k: v for k, v in c.items() if k in kind.__dataclass_fields__}
        for k in ("window", "mask_shape", "rows_shape"):
            if fields.get(k) is not None:
                fields[k] = tuple(fields[k])
        problem = kind(**fields)
        out.append(problem)
        for names in c.get("compile_runtime_sizes", []):
            out.append(problem.with_runtime_sizes(names))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases")
    ap.add_argument("--cache", help="cache directory (else ATTNOPT_CACHE_DIR "
                    "or ~/.cache/attnopt)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    if args.cache:
        os.environ["ATTNOPT_CACHE_DIR"] = args.cache
    problems = list(dict.fromkeys(problems_from(args.cases)))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(compiler.entry_for, p): p for p in problems}
        for fut in concurrent.futures.as_completed(futures):
            try:
                print(f"precompile: {fut.result()}")
            except AttnoptError as e:
                failed += 1
                print(f"precompile: FAILED {futures[fut]}: {e}", file=sys.stderr)
    print(f"precompile: {len(problems) - failed} of {len(problems)} problems "
          f"in {compiler.cache_dir()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
