"""Training pairs of packed variable-length attention (issue 20) as MLIR:
the forward attn.varlen_attention saving lse, and its
attn.varlen_attention_grad, with run-time batch and token totals. Shared by
bench/varlen.sh and bench/varlen_ab.sh."""


def write_training_pair(path, name, dtype, hq, hkv, d, dv, attrs="", rng=False):
    """Writes function @name to `path`. `attrs` are the op attributes
    (`deterministic` goes to the gradient only); `rng` adds the Philox
    seed and offset operands dropout needs."""
    q, k, v = f"tensor<?x{hq}x{d}x{dtype}>", f"tensor<?x{hkv}x{d}x{dtype}>", f"tensor<?x{hkv}x{dv}x{dtype}>"
    o, l = f"tensor<?x{hq}x{dv}x{dtype}>", f"tensor<{hq}x?xf32>"
    args = f"%q: {q}, %k: {k}, %v: {v}, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %do: {o}"
    rngs = ""
    if rng:
        args += ", %s: i64, %off: i64"
        rngs = " rng(%s, %off)"
    attr = f" {{{attrs}}}" if attrs else ""
    fwd_attrs = attrs.replace(", deterministic", "").replace("deterministic", "")
    fwd_attr = f" {{{fwd_attrs}}}" if fwd_attrs else ""
    seqlens = "seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>)"
    with open(path, "w") as f:
        f.write(f"""func.func @{name}({args}) -> ({o}, {q}, {k}, {v}) {{
  %o, %l = attn.varlen_attention ins(%q, %k, %v : {q}, {k}, {v}) {seqlens}{rngs}{fwd_attr} -> {o}, {l}
  %dq, %dk, %dv = attn.varlen_attention_grad ins(%q, %k, %v : {q}, {k}, {v}) {seqlens} forward(%o, %l : {o}, {l}) grad_output(%do : {o}){rngs}{attr} -> {q}, {k}, {v}
  return %o, %dq, %dk, %dv : {o}, {q}, {k}, {v}
}}
""")
