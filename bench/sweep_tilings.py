#!/usr/bin/env python3
"""Runs on the GPU machine: compares forward kernels compiled with different
tilings (attn-compile --block-q/--block-kv/--warps) on the benchmark grid,
next to PyTorch's FLASH_ATTENTION backend, to choose tc::chooseTiling's
defaults. Each DIR holds grid/ (timed) and, optionally, validate/ (every
kernel must pass attn-run's validation first; a failing DIR is reported and
its timings are still shown, marked).

  python3 bench/sweep_tilings.py --attn-run kernels-runtime/build/attn-run \
      DIR [DIR ...]

Prints one row per grid shape: TFLOP/s of each DIR's kernel and of flash,
and each DIR's ratio to flash.
"""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (run_attn, torch_tflops, forward_flops)


def validate(attn_run, d):
    manifests = sorted(glob.glob(os.path.join(d, "validate", "*.json")))
    if not manifests:
        return [f"(no manifests under {d}/validate)"]
    failed = []
    for m in manifests:
        rc, results, _ = bench.run_attn(attn_run, m, validate=True)
        if rc != 0 or not results:
            failed.append(os.path.basename(m))
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attn-run", required=True)
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    names = [os.path.basename(d.rstrip("/")) for d in args.dirs]
    for d, n in zip(args.dirs, names):
        failed = validate(args.attn_run, d)
        print(f"{n}: validation {'FAILED: ' + ' '.join(failed) if failed else 'passed'}",
              flush=True)
    shapes = sorted({os.path.basename(m) for d in args.dirs
                     for m in glob.glob(os.path.join(d, "grid", "*.json"))})
    print("shape".ljust(30) + "".join(f"{n:>16}" for n in names) +
          ("" if args.no_torch else f"{'flash':>9}" + "".join(f"{'/' + n[-9:]:>11}" for n in names)))
    for s in shapes:
        tf, k = [], None
        for d in args.dirs:
            m = os.path.join(d, "grid", s)
            if not os.path.exists(m):
                tf.append(None)
                continue
            k = k or json.load(open(m))["kernels"][0]
            rc, results, _ = bench.run_attn(args.attn_run, m, validate=False)
            tf.append(float(results[0]["tflops"]) if rc == 0 and results else None)
        row = s.replace(".json", "").ljust(30) + "".join(
            f"{t:16.1f}" if t else f"{'-':>16}" for t in tf)
        if not args.no_torch and k:
            flash = bench.torch_tflops(k, bench.forward_flops(k)).get("flash")
            row += f"{flash:9.1f}" if flash else f"{'-':>9}"
            row += "".join(f"{t / flash:11.3f}" if t and flash else f"{'-':>11}" for t in tf)
        print(row, flush=True)


if __name__ == "__main__":
    main()
