#!/usr/bin/env python3
"""Embed a text file in the binary: embed-text.py SYMBOL IN.txt OUT.c writes
`const char SYMBOL[] = "...";` (used for docs/results-schema.json, so the
reader validates against the very schema the docs ship)."""
import sys

sym, src, out = sys.argv[1:4]
with open(src, encoding="utf-8") as f:
    text = f.read()
lines = []
for line in text.splitlines(keepends=True):
    esc = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    lines.append('\t"' + esc + '"')
with open(out, "w", encoding="utf-8") as f:
    f.write("/* generated from %s by scripts/embed-text.py */\n" % src.rsplit("/", 1)[-1])
    f.write("extern const char %s[];\nconst char %s[] =\n%s;\n" % (sym, sym, "\n".join(lines) or '""'))
