#!/usr/bin/python3
"""Validate stackbench results files against docs/results-schema.json.
   tests/tools/check_results.py FILE_OR_DIR...   (directories: every *.json
   in them whose "schema" starts with stackbench-results/; other JSON is
   skipped). Exit 0 if all are valid, 1 naming each error, 77 if
   python3-jsonschema is missing."""
import json, os, sys

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema not installed")
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
schema = json.load(open(os.path.join(here, "..", "..", "docs", "results-schema.json")))
validator = jsonschema.Draft7Validator(schema)


def files(args):
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                for n in sorted(names):
                    if n.endswith(".json"):
                        yield os.path.join(root, n), False
        else:
            yield a, True


bad = checked = 0
for path, named in files(sys.argv[1:]):
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        if named:
            print("%s: not JSON: %s" % (path, e))
            bad += 1
        continue
    if not named and not (isinstance(doc, dict) and str(doc.get("schema", "")).startswith("stackbench-results/")):
        continue
    checked += 1
    for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        print("%s: %s: %s" % (path, "/".join(str(p) for p in e.absolute_path) or "(top)", e.message))
        bad += 1
print("%d results file(s) checked, %d error(s)" % (checked, bad))
sys.exit(1 if bad else 0)
