#!/usr/bin/python3
"""Validate stackbench results files against docs/results-schema.json.
   tests/tools/check_results.py FILE_OR_DIR...   (directories: every *.json
   in them whose "schema" starts with stackbench-results/; other JSON is
   skipped). Exit 0 if all are valid, 1 naming each error, 77 if
   python3-jsonschema is missing. The code is sbresults.check (the tests'
   one module for reading results); this name stays for the harness."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sbresults  # noqa: E402

sys.exit(sbresults.check(sys.argv[1:]))
