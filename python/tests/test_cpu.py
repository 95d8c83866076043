"""CPU tests of the attnopt package (no GPU, no torch): problem checks, the
generated IR (verified by attention-opt), cache keys, compiling into the disk
cache with attn-compile, and the runtime library's errors through ctypes.

Run by ctest (python-attnopt), which sets ATTNOPT_COMPILER,
ATTNOPT_ATTENTION_OPT, ATTNOPT_RUNTIME_LIB and LD_LIBRARY_PATH (the CUDA stub
driver, so that loading reports "no CUDA driver/GPU" on every machine).
"""

import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnopt import compiler, runtime  # noqa: E402
from attnopt.paged_problem import PagedProblem  # noqa: E402
from attnopt.problem import AttnoptError, Problem  # noqa: E402

BASE = dict(dtype="bf16", batch=2, query_heads=8, kv_heads=2, query_len=100,
            key_len=72, head_dim=64, value_dim=64, scale=0.125)

# Problems covering every feature the IR can carry.
VARIANTS = [
    dict(),
    dict(causal="bottom_right"),
    dict(causal="top_left", window=(16, 0), softcap=30.0),
    dict(causal="bottom_right", softcap=20.0, softcap_approx=True),
    dict(mask_dtype="i1", mask_shape=(2, 1, 100, 72)),
    dict(mask_dtype="f32", mask_shape=(1, 8, 1, 72), dtype="f16"),
    dict(dropout_p=0.1, deterministic=True),
    dict(head_dim=128, value_dim=64, kv_heads=8),
    dict(dtype="f32", query_len=1, key_len=1),
]


def problem(**changes):
    return Problem(**{**BASE, **changes})


def env_path(name):
    """A tool path ctest passes in; without it the test is skipped, unless
    ATTNOPT_TESTS_STRICT=1 (ctest sets it), where that is a failure."""
    value = os.environ.get(name)
    if not value:
        if os.environ.get("ATTNOPT_TESTS_STRICT") == "1":
            raise AssertionError(f"{name} is not set")
        raise unittest.SkipTest(f"{name} is not set (run through ctest)")
    return Path(value)


class ProblemChecks(unittest.TestCase):
    def expect_error(self, pattern, **changes):
        with self.assertRaisesRegex(AttnoptError, pattern):
            problem(**changes)

    def test_rejects_bad_fields(self):
        self.expect_error("dtype 'f64'", dtype="f64")
        self.expect_error("query_len = 0", query_len=0)
        self.expect_error("GQA needs Hq % Hkv == 0", kv_heads=3)
        self.expect_error("causal = 'yes'", causal="yes")
        self.expect_error(r"window = \(-2, 0\)", window=(-2, 0))
        self.expect_error("softcap = 0", softcap=0.0)
        self.expect_error("softcap_approx without softcap",
                          softcap_approx=True)
        self.expect_error("does not broadcast",
                          mask_dtype="i1", mask_shape=(2, 8, 50, 72))
        self.expect_error("mask_dtype and mask_shape go together",
                          mask_dtype="i1")
        self.expect_error("dropout_p = 1.0", dropout_p=1.0)
        self.expect_error("chip 'sm_75'", chip="sm_75")
        self.expect_error("scale", scale=float("nan"))

    def test_unbounded_window_is_no_window(self):
        self.assertEqual(problem(window=(-1, -1)), problem())
        self.assertEqual(problem(window=[3, 0]).window, (3, 0))

    def test_runtime_sizes(self):
        p = problem(mask_dtype="i1", mask_shape=(2, 1, 1, 72))
        d = p.with_runtime_sizes(["batch", "key_len"])
        self.assertEqual(d.runtime_sizes, ("batch", "key_len"))
        self.assertEqual((d.batch, d.query_len, d.key_len), (None, 100, None))
        # Full mask dimensions follow their sizes; broadcast ones stay 1.
        self.assertEqual(d.mask_shape, (None, 1, 1, None))
        self.assertEqual(d.shapes()["lse"], (None, 8, 100))
        self.assertIn("tensor<?x8x100x64xbf16>", d.train_ir())
        self.assertIn("tensor<?x1x1x?xi1>", d.train_ir())
        self.assertEqual(p.with_runtime_sizes([]), p)
        with self.assertRaisesRegex(AttnoptError, "only .* can be run-time"):
            p.with_runtime_sizes(["head_dim"])
        self.expect_error(r"head_dim = None: expected an integer >= 1$",
                          head_dim=None)
        self.expect_error("does not broadcast", batch=None,
                          mask_dtype="i1", mask_shape=(None, 1, 100, None))
        self.expect_error(r"batch = True", batch=True)

    def test_packed(self):
        p = problem(batch=None, query_len=None, key_len=None, packed=True)
        s = p.shapes()
        self.assertEqual(s["query"], (None, 8, 64))
        self.assertEqual(s["lse"], (8, None))
        self.assertEqual(s["cu_seqlens_q"], (None,))
        self.expect_error("a packed batch takes batch, query_len at run time",
                          key_len=None, packed=True)
        self.expect_error("no mask operand", batch=None, query_len=None,
                          key_len=None, packed=True, mask_dtype="i1",
                          mask_shape=(1, 1, None, None))
        self.expect_error("tensor-core kernels only", dtype="f32", batch=None,
                          query_len=None, key_len=None, packed=True)

    def test_shapes(self):
        s = problem(head_dim=128, value_dim=64).shapes()
        self.assertEqual(s["query"], (2, 8, 100, 128))
        self.assertEqual(s["key"], (2, 2, 72, 128))
        self.assertEqual(s["value"], (2, 2, 72, 64))
        self.assertEqual(s["output"], (2, 8, 100, 64))
        self.assertEqual(s["lse"], (2, 8, 100))


class GeneratedIR(unittest.TestCase):
    def test_every_variant_verifies(self):
        opt = env_path("ATTNOPT_ATTENTION_OPT")
        for v in VARIANTS:
            p = problem(**v)
            with self.subTest(variant=v):
                run = subprocess.run([str(opt), "-"],
                                     input=p.train_ir(), capture_output=True,
                                     text=True)
                self.assertEqual(run.returncode, 0, run.stderr)
                ir = p.train_ir()
                self.assertIn("attn.attention ins", ir)
                self.assertIn("attn.attention_grad ins", ir)
                self.assertEqual("mask(%mask" in ir, p.mask_shape is not None)
                self.assertEqual("rng(%seed, %offset)" in ir, p.dropout_p > 0)
                self.assertEqual("deterministic" in ir, p.deterministic)

    def test_runtime_and_packed_variants_verify(self):
        opt = env_path("ATTNOPT_ATTENTION_OPT")
        packed = dict(batch=None, query_len=None, key_len=None, packed=True)
        cases = [problem(**v).with_runtime_sizes(["batch", "query_len",
                                                   "key_len"])
                 for v in VARIANTS]
        cases.append(problem(query_len=1).with_runtime_sizes(["key_len"]))
        cases += [problem(**packed),
                  problem(**packed, causal="bottom_right", window=(8, 0),
                          softcap=20.0, dropout_p=0.1, deterministic=True)]
        for p in cases:
            with self.subTest(problem=p):
                ir = p.train_ir()
                run = subprocess.run([str(opt), "-"], input=ir,
                                     capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stderr)
                op = "attn.varlen_attention" if p.packed else "attn.attention"
                self.assertIn(f"{op} ins", ir)
                self.assertIn(f"{op}_grad ins", ir)
                self.assertEqual("seqlens(%cq, %ck" in ir, p.packed)

    def test_scale_is_exact_f32(self):
        ir = problem(scale=1 / 3).train_ir()
        self.assertIn("scale = 3.333333433e-01 : f32", ir)


class CacheKeys(unittest.TestCase):
    def test_stable_and_sensitive_to_every_field(self):
        base = problem()
        self.assertEqual(base.cache_key("c1"), problem().cache_key("c1"))
        self.assertNotEqual(base.cache_key("c1"), base.cache_key("c2"))
        changes = dict(dtype="f16", batch=3, query_heads=4, kv_heads=1,
                       query_len=101, key_len=73, head_dim=32, value_dim=32,
                       scale=0.126, causal="top_left", window=(4, 4),
                       softcap=5.0, dropout_p=0.5, deterministic=True,
                       chip="sm_80")
        keys = {base.cache_key("c")}
        for field, value in changes.items():
            keys.add(dataclasses.replace(base, **{field: value}).cache_key("c"))
        keys.add(problem(mask_dtype="i1", mask_shape=(1, 1, 100, 72)).cache_key("c"))
        keys.add(problem(mask_dtype="f32", mask_shape=(1, 1, 100, 72)).cache_key("c"))
        keys.add(problem(mask_dtype="i1", mask_shape=(2, 1, 100, 72)).cache_key("c"))
        # A run-time size is its own key, not any static size's.
        for field in ("batch", "query_len", "key_len"):
            keys.add(base.with_runtime_sizes([field]).cache_key("c"))
        keys.add(problem(batch=None, query_len=None, key_len=None,
                         packed=True).cache_key("c"))
        keys.add(problem(softcap=5.0, softcap_approx=True).cache_key("c"))
        self.assertEqual(len(keys), len(changes) + 4 + 5)
        # The exact softcap's keys did not change when softcap_approx came.
        self.assertNotIn("softcap_approx", problem(softcap=5.0).as_dict())

    def test_f32_precision(self):
        """tf32 is its own key for f32 inputs; "ieee" keeps the keys cached
        before the field existed; f16/bf16 have one key whatever is asked."""
        f32 = problem(dtype="f32")
        tf32 = problem(dtype="f32", f32_precision="tf32")
        self.assertNotEqual(f32.cache_key("c"), tf32.cache_key("c"))
        self.assertNotIn("f32_precision", f32.as_dict())
        self.assertEqual(tf32.as_dict()["f32_precision"], "tf32")
        self.assertEqual(problem(f32_precision="tf32").cache_key("c"),
                         problem().cache_key("c"))
        self.assertEqual(tf32.compile_options(), ["--f32-precision=tf32"])
        self.assertEqual(f32.compile_options(), [])
        # The IR is the same: the precision is attn-compile's option.
        self.assertEqual(f32.train_ir(), tf32.train_ir())
        with self.assertRaisesRegex(AttnoptError, "f32_precision 'fast'"):
            problem(dtype="f32", f32_precision="fast")


class Compile(unittest.TestCase):
    def setUp(self):
        self.compiler = env_path("ATTNOPT_COMPILER")
        self.tmp = tempfile.TemporaryDirectory()
        self.env = mock.patch.dict(os.environ,
                                   {"ATTNOPT_CACHE_DIR": self.tmp.name})
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def test_compiles_once_and_manifest_matches_problem(self):
        p = problem(causal="bottom_right", mask_dtype="i1",
                    mask_shape=(2, 1, 100, 72))
        entry = compiler.entry_for(p, self.compiler)
        manifest = json.loads((entry / "train.json").read_text())
        forward = [k for k in manifest["kernels"] if k["op"] == "attention"]
        backward = [k for k in manifest["kernels"] if k["op"] == "attention_grad"]
        self.assertTrue(forward and backward)
        shapes = p.shapes()
        for k in forward + backward:
            for param in k["params"]:
                if param["name"] in shapes:
                    self.assertEqual(tuple(param["shape"]), shapes[param["name"]],
                                     (k["name"], param["name"]))
            self.assertEqual(k["causal"], "bottom_right")
        names = {k["name"] for k in forward} | {k.get("group") for k in forward}
        self.assertTrue(all(k["forward"] in names for k in backward))
        self.assertTrue(all(k["has_lse"] for k in forward if k.get("stage") != "split_kv"))
        # The second request is a cache hit: attn-compile is not run again.
        with mock.patch.object(compiler.subprocess, "run",
                               side_effect=AssertionError("recompiled")):
            self.assertEqual(compiler.entry_for(p, self.compiler), entry)
        # Nothing half-written is left behind.
        self.assertEqual(sorted(d.name for d in Path(self.tmp.name).iterdir()),
                         sorted([entry.name, "compiler-id"]))
        # A copy of the cache is usable without the compiler.
        with mock.patch.object(compiler, "find_compiler", return_value=None):
            self.assertEqual(compiler.entry_for(p), entry)

    def test_ada_chips_fit_their_shared_memory(self):
        """sm_86 / sm_89 (the Python op's chip on capability 8.6 / 8.9) get
        kernels within their 99 KiB of shared memory a block, where the
        sm_80 kernels of the same problem need more."""
        limit = 99 * 1024

        def largest(chip):
            p = problem(head_dim=192, value_dim=192, query_len=300,
                        key_len=300, causal="bottom_right", chip=chip)
            entry = compiler.entry_for(p, self.compiler)
            manifest = json.loads((entry / "train.json").read_text())
            self.assertEqual(manifest["chip"], chip)
            return max(k["dynamic_shared_memory"] for k in manifest["kernels"])

        self.assertGreater(largest("sm_80"), limit)
        for chip in ("sm_86", "sm_89"):
            self.assertLessEqual(largest(chip), limit, chip)

    def test_tf32_manifest(self):
        """An f32 problem with f32_precision="tf32" compiles its forward as
        a tf32 tensor-core kernel (the manifest says so) and its backward
        exactly."""
        p = problem(dtype="f32", causal="bottom_right", f32_precision="tf32")
        manifest = json.loads(
            (compiler.entry_for(p, self.compiler) / "train.json").read_text())
        forward = [k for k in manifest["kernels"] if k["op"] == "attention"]
        backward = [k for k in manifest["kernels"]
                    if k["op"] == "attention_grad"]
        self.assertTrue(forward and backward)
        self.assertTrue(all(k.get("matmul_precision") == "tf32"
                            for k in forward))
        self.assertTrue(all("matmul_precision" not in k for k in backward))
        exact = json.loads((compiler.entry_for(
            problem(dtype="f32", causal="bottom_right"), self.compiler)
            / "train.json").read_text())
        self.assertTrue(all("matmul_precision" not in k
                            for k in exact["kernels"]))

    def test_runtime_sizes_and_packed_manifests(self):
        """Run-time sizes are null in the manifest's shapes and i32 size
        parameters; a packed problem takes its offsets."""
        dyn = problem(query_len=1, mask_dtype="i1", mask_shape=(2, 1, 1, 72)
                      ).with_runtime_sizes(["batch", "key_len"])
        manifest = json.loads(
            (compiler.entry_for(dyn, self.compiler) / "train.json").read_text())
        for k in manifest["kernels"]:
            shapes = {p["name"]: p.get("shape") for p in k["params"]}
            self.assertEqual(shapes["query"], [None, 8, 1, 64], k["name"])
            if "mask" in shapes:
                self.assertEqual(shapes["mask"], [None, 1, 1, None])
            self.assertIn("batch", shapes, k["name"])
            self.assertNotIn("query_len", shapes, k["name"])
        # Decoding with a run-time key length: the split-KV group, its
        # split count decided at launch.
        stages = [k.get("stage") for k in manifest["kernels"]
                  if k["op"] == "attention"]
        self.assertEqual(stages, ["split_kv", "combine"])
        packed = problem(batch=None, query_len=None, key_len=None, packed=True,
                         causal="bottom_right")
        manifest = json.loads(
            (compiler.entry_for(packed, self.compiler) / "train.json").read_text())
        ops = {k["op"] for k in manifest["kernels"]}
        self.assertEqual(ops, {"varlen_attention", "varlen_attention_grad"})
        for k in manifest["kernels"]:
            names = [p["name"] for p in k["params"]]
            self.assertIn("cu_seqlens_q", names, k["name"])

    def test_missing_compiler_names_the_cache(self):
        with mock.patch.object(compiler, "find_compiler", return_value=None):
            with self.assertRaisesRegex(AttnoptError,
                                        f"attn-compile was not found.*{self.tmp.name}"):
                compiler.entry_for(problem())

    def test_compiler_error_is_reported_with_the_ir(self):
        bad = Path(self.tmp.name) / "bad-compiler"
        bad.write_text("#!/bin/sh\necho 'error: no kernel for this' >&2\nexit 1\n")
        bad.chmod(0o755)
        with self.assertRaisesRegex(AttnoptError,
                                    r"(?s)attn-compile failed \(1\).*train.mlir.*no kernel for this"):
            compiler.entry_for(problem(), bad)


PAGED = dict(dtype="bf16", batch=3, query_heads=8, kv_heads=2, query_len=2,
             head_dim=96, value_dim=64, num_pages=40, page_size=16,
             max_pages=9, scale=0.125)


class PagedProblems(unittest.TestCase):
    """attnopt.paged_problem: checks, IR, cache keys, the compiled group."""

    def test_rejects_bad_fields(self):
        for change, message in (
                (dict(dtype="f32"), "tensor-core kernels only"),
                (dict(page_size=0), "page_size = 0"),
                (dict(max_pages=0), "max_pages = 0"),
                (dict(head_dim=100), "multiples of 8 up to 256"),
                (dict(value_dim=264), "multiples of 8 up to 256"),
                (dict(query_heads=6, kv_heads=4), "Hq % Hkv"),
                (dict(causal="diagonal"), "causal = 'diagonal'"),
                (dict(softcap=-1.0), "softcap"),
                (dict(chip="sm_70"), "chip")):
            with self.subTest(change=change):
                with self.assertRaisesRegex(AttnoptError, message):
                    PagedProblem(**{**PAGED, **change})
        with self.assertRaisesRegex(AttnoptError, "only"):
            PagedProblem(**PAGED).with_runtime_sizes(["key_len"])

    def test_ir_verifies_and_compiles(self):
        opt = env_path("ATTNOPT_ATTENTION_OPT")
        static = PagedProblem(**PAGED, causal="bottom_right", window=(64, 0),
                              softcap=30.0)
        dyn = static.with_runtime_sizes(["batch", "num_pages"])
        wide = static.with_runtime_sizes(["batch", "num_pages", "max_pages"])
        for p in (static, dyn, wide,
                  PagedProblem(**{**PAGED, "window": (-1, -1)})):
            with self.subTest(problem=p):
                run = subprocess.run([str(opt), "-"], input=p.train_ir(),
                                     capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stderr)
                self.assertIn("attn.paged_attention ins", p.train_ir())
        self.assertIsNone(PagedProblem(**{**PAGED, "window": (-1, -1)}).window)
        with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(
                os.environ, {"ATTNOPT_CACHE_DIR": tmp}):
            manifest = json.loads((compiler.entry_for(
                dyn, env_path("ATTNOPT_COMPILER")) / "train.json").read_text())
        stages = [k.get("stage") for k in manifest["kernels"]]
        self.assertEqual(stages, ["split_kv", "combine"])
        for k in manifest["kernels"]:
            self.assertEqual(k["op"], "paged_attention")
            params = {q["name"]: q.get("shape") for q in k["params"]}
            self.assertEqual(params["key_cache"], [None, 16, 2, 96])
            self.assertEqual(params["block_table"], [None, 9])
            self.assertIn("num_pages", params)
            self.assertNotIn("max_pages_per_seq", params)
        # The table's width at run time: one group for every width, its
        # size parameter after num_pages, the split count at launch.
        self.assertIn("tensor<?x?xi32>", wide.train_ir())
        with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(
                os.environ, {"ATTNOPT_CACHE_DIR": tmp}):
            manifest = json.loads((compiler.entry_for(
                wide, env_path("ATTNOPT_COMPILER")) / "train.json").read_text())
        for k in manifest["kernels"]:
            self.assertIsNone(k["max_pages_per_seq"])
            self.assertIsNone(k["codegen"]["splits"])
            names = [q["name"] for q in k["params"]]
            self.assertEqual(names[-4:], ["batch", "num_pages",
                                          "max_pages_per_seq", "num_splits"])
            params = {q["name"]: q.get("shape") for q in k["params"]}
            self.assertEqual(params["block_table"], [None, None])

    def test_cache_keys(self):
        base = PagedProblem(**PAGED)
        keys = {base.cache_key("c"),
                base.with_runtime_sizes(["batch"]).cache_key("c"),
                base.with_runtime_sizes(["num_pages"]).cache_key("c"),
                base.with_runtime_sizes(["max_pages"]).cache_key("c")}
        for field, value in dict(page_size=32, max_pages=10, num_pages=41,
                                 query_len=1, causal="top_left").items():
            keys.add(dataclasses.replace(base, **{field: value}).cache_key("c"))
        # Never a dense problem's key, even with the same sizes.
        keys.add(problem().cache_key("c"))
        self.assertEqual(len(keys), 4 + 5 + 1)

    def test_precompile_reads_paged_cases(self):
        from attnopt import precompile
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump([dict(PAGED, op="paged_attention",
                            compile_runtime_sizes=[["batch", "num_pages"],
                                                   ["max_pages"]]),
                       BASE], f)
            f.flush()
            problems = precompile.problems_from(f.name)
        self.assertEqual([type(p).__name__ for p in problems],
                         ["PagedProblem", "PagedProblem", "PagedProblem",
                          "Problem"])
        self.assertEqual(problems[1].runtime_sizes, ("batch", "num_pages"))
        self.assertEqual(problems[2].runtime_sizes, ("max_pages",))


class MergeProblems(unittest.TestCase):
    """attnopt.merge_problem: checks, IR, the compiled kernel, keys."""

    def test_checks_ir_and_manifest(self):
        from attnopt.merge_problem import MergeProblem
        for change, message in ((dict(rows_shape=()), "at least one"),
                                (dict(splits=0), "splits = 0"),
                                (dict(partial_dtype="f64"), "partial_dtype")):
            with self.subTest(change=change), \
                    self.assertRaisesRegex(AttnoptError, message):
                MergeProblem(**{**MERGE, **change})
        p = MergeProblem(**MERGE)
        run = subprocess.run([str(env_path("ATTNOPT_ATTENTION_OPT")), "-"],
                             input=p.train_ir(), capture_output=True,
                             text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(
                os.environ, {"ATTNOPT_CACHE_DIR": tmp}):
            manifest = json.loads((compiler.entry_for(
                p, env_path("ATTNOPT_COMPILER")) / "train.json").read_text())
        (k,) = manifest["kernels"]
        self.assertEqual(k["op"], "merge_partials")
        shapes = {q["name"]: (q["shape"], q["dtype"]) for q in k["params"]}
        self.assertEqual(shapes["partial_output"], ([3, 2, 5, 80], "bf16"))
        self.assertEqual(shapes["output"], ([2, 5, 80], "f16"))
        keys = {p.cache_key("c"), MergeProblem(**{**MERGE, "splits": 4}).cache_key("c"),
                MergeProblem(**{**MERGE, "out_dtype": "f32"}).cache_key("c"),
                problem().cache_key("c")}
        self.assertEqual(len(keys), 4)


MERGE = dict(splits=3, rows_shape=(2, 5), value_dim=80, partial_dtype="bf16",
             out_dtype="f16")


class Install(unittest.TestCase):
    def test_pip_installs_the_package(self):
        """`pip install ./python` (from a copy, so the checkout stays clean)
        gives an importable package that finds attn-compile on PATH."""
        if os.environ.get("ATTNOPT_TESTS_PIP") != "1":
            self.skipTest("set ATTNOPT_TESTS_PIP=1 (ctest does)")
        import shutil
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "src"
            shutil.copytree(Path(__file__).resolve().parents[1], src,
                            ignore=shutil.ignore_patterns("__pycache__"))
            target = Path(tmp) / "site"
            run = subprocess.run(
                [sys.executable, "-m", "pip", "install", "-q",
                 "--disable-pip-version-check", "--target", str(target), str(src)],
                capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            compiler_dir = env_path("ATTNOPT_COMPILER").parent
            env = {k: v for k, v in os.environ.items()
                   if not k.startswith("ATTNOPT_")}
            env["PYTHONPATH"] = str(target)
            env["PATH"] = f"{compiler_dir}:{env.get('PATH', '')}"
            probe = ("import attnopt, attnopt.compiler as c; "
                     "print(attnopt.__file__); print(c.find_compiler())")
            run = subprocess.run([sys.executable, "-c", probe], cwd=tmp,
                                 capture_output=True, text=True, env=env)
            self.assertEqual(run.returncode, 0, run.stderr)
            where, compiler = run.stdout.split()
            self.assertTrue(where.startswith(str(target)), where)
            self.assertEqual(Path(compiler).parent, compiler_dir)


class RuntimeLibrary(unittest.TestCase):
    def setUp(self):
        env_path("ATTNOPT_RUNTIME_LIB")

    def test_no_gpu_is_a_clear_error(self):
        # A real manifest and PTX, so that loading gets as far as the driver
        # (the stub: "no CUDA driver/GPU", status 2).
        with tempfile.TemporaryDirectory() as cache, \
                mock.patch.dict(os.environ, {"ATTNOPT_CACHE_DIR": cache}):
            entry = compiler.entry_for(problem(), env_path("ATTNOPT_COMPILER"))
            with self.assertRaises(runtime.RuntimeFailure) as cm:
                runtime.Library(str(entry / "train.json"))
        self.assertEqual(cm.exception.code, 2)
        self.assertIn("no CUDA driver/GPU", str(cm.exception))

    def test_bad_manifest_is_an_input_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            f.write("{\"format\": \"attn-kernels-v1\"")
            f.flush()
            with self.assertRaises(runtime.RuntimeFailure) as cm:
                runtime.Library(f.name)
        self.assertEqual(cm.exception.code, 3)
        self.assertIn(f.name, str(cm.exception))

    def test_sized_entry_points(self):
        lib = runtime.library()
        self.assertGreaterEqual(lib.attnrt_api_version(), 3)
        n = runtime.ctypes.c_uint64()
        sizes = runtime.make_sizes(batch=2, cu_seqlens_q=[0, 3],
                                   cu_seqlens_k=[0, 5])
        self.assertEqual(sizes.offsets_count, 2)
        self.assertEqual(lib.attnrt_workspace_bytes_sized(
            None, runtime.ctypes.byref(sizes), runtime.ctypes.byref(n)), 3)
        self.assertIn(b"null argument", lib.attnrt_last_error())
        with self.assertRaisesRegex(AttnoptError, "go together"):
            runtime.make_sizes(cu_seqlens_q=[0, 1])

    def test_unknown_parameter_name(self):
        lib = runtime.library()
        args = lib.attnrt_arguments_new()
        try:
            self.assertEqual(lib.attnrt_arguments_set(args, b"querry", 16), 3)
            self.assertIn(b"'querry'", lib.attnrt_last_error())
        finally:
            lib.attnrt_arguments_free(args)


if __name__ == "__main__":
    unittest.main()
