#!/usr/bin/env python3
"""The problems of bench/softcap_approx.sh (docs/semantics.md section 3.1):

  bench/softcap_cases.py OUTDIR

OUTDIR/validate/: training steps with `softcap_approx` across the kernel
families (wgmma and mma.sync forwards and backwards, the CUDA-core f32
kernels): D = 64, 96, 128, 256 and 192/128, bf16, f16 and f32, softcaps 2, 30
and 50, ragged lengths, GQA, bottom-right causal, a window and an additive
mask.
OUTDIR/time/: training steps at B8 H16 L4096 bf16 (D = 64, 128, 256; full
and causal) in three forms each: no softcap (`*_nocap`), the exact softcap
30 (`*_exact`) and softcap_approx (`*_approx`), timed in one run.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_cases import attention_train  # noqa: E402

VALIDATE = [
    # name, B, Hq, Hkv, Lq, Lk, D, Dv, dtype, attrs, mask
    ("sa_d64_bf16_gqa", 2, 8, 2, 200, 200, 64, 64, "bf16",
     "softcap = 30.0 : f32", None),
    ("sa_d128_bf16_br", 1, 4, 4, 77, 1000, 128, 128, "bf16",
     "softcap = 50.0 : f32, causal = #attn.causal<bottom_right>", None),
    ("sa_d128_f16_cap2", 2, 4, 1, 300, 300, 128, 128, "f16",
     "softcap = 2.0 : f32, causal = #attn.causal<top_left>", None),
    ("sa_d96_bf16_window", 1, 6, 3, 333, 333, 96, 96, "bf16",
     "softcap = 30.0 : f32, window = array<i64: 64, 0>, "
     "causal = #attn.causal<bottom_right>", None),
    ("sa_d256_bf16", 1, 4, 2, 200, 260, 256, 256, "bf16",
     "softcap = 30.0 : f32", None),
    ("sa_mla_bf16", 1, 4, 4, 190, 190, 192, 128, "bf16",
     "softcap = 30.0 : f32, causal = #attn.causal<top_left>", None),
    ("sa_d64_f16_addmask", 2, 4, 4, 100, 150, 64, 64, "f16",
     "softcap = 20.0 : f32", ((2, 1, 1, 150), "f32")),
    ("sa_d64_bf16_short", 3, 2, 1, 17, 5, 64, 64, "bf16",
     "softcap = 30.0 : f32", None),
    ("sa_d64_f32", 1, 4, 2, 70, 90, 64, 64, "f32",
     "softcap = 30.0 : f32", None),
    ("sa_d32_f32_cap2", 2, 2, 2, 33, 65, 32, 32, "f32",
     "softcap = 2.0 : f32, causal = #attn.causal<bottom_right>", None),
]


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    out = argv[1]
    for sub in ("validate", "time"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    for name, b, hq, hkv, lq, lk, d, dv, dt, attrs, mask in VALIDATE:
        with open(os.path.join(out, "validate", name + ".mlir"), "w") as f:
            f.write(attention_train(name, b, hq, hkv, lq, lk, d, dv, dt,
                                    attrs + ", softcap_approx", mask=mask))
    for d in (64, 128, 256):
        for causal in (False, True):
            base = f"t_d{d}_{'causal' if causal else 'full'}"
            c = "causal = #attn.causal<top_left>" if causal else ""
            forms = {"nocap": c, "exact": "softcap = 30.0 : f32",
                     "approx": "softcap = 30.0 : f32, softcap_approx"}
            for form, attrs in forms.items():
                if form != "nocap" and c:
                    attrs = c + ", " + attrs
                name = f"{base}_{form}"
                with open(os.path.join(out, "time", name + ".mlir"), "w") as f:
                    f.write(attention_train(name, 8, 16, 16, 4096, 4096, d,
                                            d, "bf16", attrs))


if __name__ == "__main__":
    main(sys.argv)
