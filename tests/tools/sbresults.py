#!/usr/bin/python3
"""Reading stackbench results files in the tests: the one module for it.

As a module (tests/integration/lib.sh's sb_test puts tests/tools on
PYTHONPATH, so a test's `python3 - <<'PY'` can `import sbresults`):
    load(PATH)                    a results file, parsed
    one(DIR)                      the one results file in DIR (asserts one)
    get(DOC, "stack.built[0].level")   a value by path; KeyError naming the step
    suites(DOC, NAME)             the suite objects of suite NAME, in order
    suite(DOC, NAME)              the first of them (asserts there is one)
    figure(DOC, SUITE, KEY)       figures[KEY]["value"] of suite(DOC, SUITE)
    layers(DOC)                   stack.built by layer name
    errors(DOC)                   docs/results-schema.json's complaints: list of text
    check(PATHS)                  validate files and directories (check_results.py)
As a command:
    sbresults.py get FILE PATH        the value: a string or number as it is,
                                      anything else as JSON; exit 1 if absent
    sbresults.py len FILE PATH        how many items the list/object at PATH has
    sbresults.py figure FILE SUITE KEY   a figure's value
    sbresults.py check FILE_OR_DIR...    schema validation, as check_results.py
A PATH is keys joined by dots with [N] indexes (negative from the end);
["key with spaces or dots"] names any key: 'jobs[0]["job options"].rw'.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "docs", "results-schema.json")
_STEP = re.compile(r'\.?([^.\[\]"]+)|\[(-?\d+)\]|\["([^"]*)"\]')


def load(path):
    with open(path) as f:
        return json.load(f)


def one(d):
    files = [n for n in os.listdir(d) if n.endswith(".json")]
    assert len(files) == 1, "want one results file in %s, found %s" % (d, files)
    return load(os.path.join(d, files[0]))


def steps(path):
    out, pos = [], 0
    while pos < len(path):
        m = _STEP.match(path, pos)
        if not m or m.end() == pos:
            raise ValueError("bad path %r at %r" % (path, path[pos:]))
        key, idx, quoted = m.groups()
        out.append(int(idx) if idx is not None else (quoted if quoted is not None else key))
        pos = m.end()
    return out


def get(doc, path):
    v, done = doc, ""
    for s in steps(path):
        try:
            if isinstance(s, int) and not isinstance(v, list):
                raise TypeError
            v = v[s]
        except (KeyError, IndexError, TypeError):
            raise KeyError("%s: no %r in %s" % (path, s, done or "the file")) from None
        done += "[%d]" % s if isinstance(s, int) else ("." if done else "") + s
    return v


def suites(doc, name):
    return [s for s in doc.get("suites", []) if s.get("suite") == name]


def suite(doc, name):
    s = suites(doc, name)
    assert s, "no suite %r in the results (suites: %s)" % (name, [x.get("suite") for x in doc.get("suites", [])])
    return s[0]


def figure(doc, name, key):
    figs = suite(doc, name).get("figures", {})
    assert key in figs, "suite %s has no figure %r (figures: %s)" % (name, key, sorted(figs))
    return figs[key]["value"]


def layers(doc):
    return {l["layer"]: l for l in doc["stack"]["built"]}


_validator = None


def errors(doc):
    """The schema's complaints about DOC, "path: message" each (needs
    python3-jsonschema: ImportError without)."""
    global _validator
    if _validator is None:
        import jsonschema
        _validator = jsonschema.Draft7Validator(load(SCHEMA))
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
            for e in sorted(_validator.iter_errors(doc), key=lambda e: list(e.absolute_path))]


def _files(args):
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                for n in sorted(names):
                    if n.endswith(".json"):
                        yield os.path.join(root, n), False
        else:
            yield a, True


def check(args, out=sys.stdout):
    """Validate files and directories (directories: every *.json whose
    "schema" starts with stackbench-results/; other JSON is skipped).
    Prints each error and a count; returns 0 if all are valid, 1 if not,
    77 if python3-jsonschema is missing."""
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        print("SKIP: python3-jsonschema not installed", file=out)
        return 77
    bad = checked = 0
    for path, named in _files(args):
        try:
            doc = load(path)
        except (OSError, ValueError) as e:
            if named:
                print("%s: not JSON: %s" % (path, e), file=out)
                bad += 1
            continue
        if not named and not (isinstance(doc, dict) and str(doc.get("schema", "")).startswith("stackbench-results/")):
            continue
        checked += 1
        for e in errors(doc):
            print("%s: %s" % (path, e), file=out)
            bad += 1
    print("%d results file(s) checked, %d error(s)" % (checked, bad), file=out)
    return 1 if bad else 0


def _show(v):
    return v if isinstance(v, str) else json.dumps(v)


def main(argv):
    cmds = {"get": 2, "len": 2, "figure": 3}
    if len(argv) >= 2 and argv[0] == "check":
        return check(argv[1:])
    if not argv or argv[0] not in cmds or len(argv) != cmds[argv[0]] + 1:
        print(__doc__.split("As a command:\n")[1].split("A PATH")[0].rstrip(), file=sys.stderr)
        return 2
    try:
        doc = load(argv[1])
        if argv[0] == "figure":
            print(_show(figure(doc, argv[2], argv[3])))
        else:
            v = get(doc, argv[2])
            print(len(v) if argv[0] == "len" else _show(v))
    except (OSError, ValueError, KeyError, AssertionError, TypeError) as e:
        print("sbresults: %s: %s" % (argv[1], e.args[0] if e.args else e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
