#!/usr/bin/env python3
"""Run-time size draws for the kernels compiled with "?" batch and lengths
(bench/dynamic.sh, bench/tma.sh): six fixed ones (1/1/1, Lq = 1 against
1000 keys, lengths below a tile, multiples of the tiles and one past them,
Lk < Lq), then six long-tailed random ones from SEED. Prints "# seed S",
then one attn-run --sizes argument per line.

    python3 bench/draw_sizes.py SEED > sizes.txt
"""
import random
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    seed = int(sys.argv[1])
    rng = random.Random(seed)
    fixed = [(1, 1, 1), (1, 1, 1000), (3, 17, 33), (2, 128, 256), (1, 129, 257), (2, 300, 7)]

    def length():  # long-tailed: mostly short, sometimes up to 1500
        return min(1500, max(1, int(rng.paretovariate(0.8) * 20)))

    draws = fixed + [(rng.randint(1, 4), length(), length()) for _ in range(6)]
    print(f"# seed {seed}")
    for b, lq, lk in draws:
        print(f"batch={b},query_len={lq},key_len={lk}")


if __name__ == "__main__":
    main()
