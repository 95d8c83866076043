#!/usr/bin/env bash
# Installs what is needed, builds everything and runs the whole test suite
# (lit + FileCheck through the check-attn target). Tests that need a GPU are
# marked with the lit feature `gpu` and are skipped on machines without one.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
"$root/scripts/build.sh" check-attn
