#!/usr/bin/env python3
"""Prints the PTX held by the first gpu.binary in the MLIR text on stdin: the
`assembly` string of its #gpu.object, with MLIR's \\XX escapes undone."""
import re
import sys

text = sys.stdin.read()
m = re.search(r'#gpu\.object<.*?assembly = "((?:[^"\\]|\\.)*)"', text, re.S)
if not m:
    sys.exit("binary-ptx.py: no gpu.object with an assembly string on stdin")
ptx = re.sub(r"\\([0-9A-Fa-f]{2})", lambda h: chr(int(h.group(1), 16)),
             m.group(1))
sys.stdout.write(ptx.replace("\\\\", "\\"))
