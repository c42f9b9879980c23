#!/usr/bin/env python3
"""One table for the environment variables (issue 26): every STACKBENCH_* and
SB_* name a C file under src/ spells out must be a row of src/cmd/environ.c,
and every row must still be used somewhere else in src/; `stackbench --help`
must list every row (the public ones with their text, the internal ones by
name). Exit 1 naming each difference.
  tests/tools/env_table.py SRCDIR STACKBENCH-BINARY"""
import os
import re
import subprocess
import sys

src, binary = sys.argv[1], sys.argv[2]
table_file = os.path.join(src, "cmd", "environ.c")
name_re = re.compile(r'"((?:STACKBENCH|SB)_[A-Z0-9_]*[A-Z0-9])[="]')
used = {}
for dirpath, _, files in os.walk(src):
    for f in files:
        if not f.endswith(".c"):
            continue
        p = os.path.join(dirpath, f)
        if p == table_file:
            continue
        for i, line in enumerate(open(p, encoding="utf-8", errors="replace"), 1):
            for m in name_re.finditer(line):
                used.setdefault(m.group(1), f"{os.path.relpath(p, src)}:{i}")
# SB_BOUND_MARK is a mark in compare's text, not a variable
used.pop("SB_BOUND_MARK", None)
rows = re.findall(r'\{ "((?:STACKBENCH|SB)_[A-Z0-9_]+)"', open(table_file).read())
helptext = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
problems = []
for n, where in sorted(used.items()):
    if n not in rows:
        problems.append(f"{n} (used at src/{where}) is not in src/cmd/environ.c")
for n in rows:
    if n not in used:
        problems.append(f"{n} is in src/cmd/environ.c but no other file in src/ uses it")
    if n not in helptext:
        problems.append(f"{n} is not in `stackbench --help`")
for p in problems:
    print("env_table:", p)
print(f"env_table: {len(rows)} variables in the table, {len(used)} used in src/, {len(problems)} problems")
sys.exit(1 if problems else 0)
