#!/usr/bin/env python3
"""Print "PASSED FAILED" of a meson testlog.json (OK and EXPECTEDFAIL pass,
SKIP counts as neither, everything else fails). Used by scripts/test.sh and
scripts/cross-test.sh."""
import json
import sys

ok = bad = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"):
        ok += 1
    elif r != "SKIP":
        bad += 1
print(ok, bad)
