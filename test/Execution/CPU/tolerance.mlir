// --tolerance=0 asks for exact results (issue 17: it silently meant the
// default tolerance); a bf16 output is never exact, so it fails, while the
// default and an explicit loose tolerance pass. A negative one is refused.
// RUN: not attn-cpu-run %s --tolerance=0 | FileCheck %s --check-prefix=EXACT
// RUN: attn-cpu-run %s | FileCheck %s --check-prefix=DEFAULT
// RUN: attn-cpu-run %s --tolerance=0.5 | FileCheck %s --check-prefix=LOOSE
// RUN: not attn-cpu-run %s --tolerance=-1 2>&1 | FileCheck %s --check-prefix=NEG

// EXACT: (tolerance 0.0e+00)
// EXACT: FAIL
// DEFAULT: (tolerance 8.0e-03)
// DEFAULT: PASS
// LOOSE: (tolerance 5.0e-01)
// LOOSE: PASS
// NEG: --tolerance must be a non-negative number
func.func @bf16(%q: tensor<1x2x16x32xbf16>, %k: tensor<1x2x16x32xbf16>, %v: tensor<1x2x16x32xbf16>) -> tensor<1x2x16x32xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x16x32xbf16>, tensor<1x2x16x32xbf16>, tensor<1x2x16x32xbf16>) -> tensor<1x2x16x32xbf16>
  return %o : tensor<1x2x16x32xbf16>
}
