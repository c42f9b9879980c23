#!/usr/bin/python3
"""Generate the key tables of docs/results-schema.md from
docs/results-schema.json (the machine-readable schema is the source; the
doc's tables are its rendering, between the GENERATED markers).
   scripts/results-schema-doc.py          rewrite the doc
   scripts/results-schema-doc.py --check  exit 1 if the doc is out of date"""
import json, os, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
schema_path = os.path.join(root, "docs", "results-schema.json")
doc_path = os.path.join(root, "docs", "results-schema.md")
BEGIN = "<!-- BEGIN GENERATED from results-schema.json by scripts/results-schema-doc.py: do not edit -->"
END = "<!-- END GENERATED -->"
schema = json.load(open(schema_path))
defs = schema["$defs"]


def resolve(p):
    while "$ref" in p:
        extra = {k: v for k, v in p.items() if k != "$ref"}
        p = dict(defs[p["$ref"].split("/")[-1]], **extra)
    return p


def type_of(p):
    ref = p.get("$ref", "")
    p = resolve(p)
    if "const" in p:
        return "`%s`" % json.dumps(p["const"])
    if "enum" in p:
        return " \\| ".join("`%s`" % e for e in p["enum"])
    t = p.get("type", "any")
    if isinstance(t, list):
        t = " or ".join(t)
    if t == "array":
        it = p.get("items", {})
        name = it.get("$ref", "").split("/")[-1]
        return "array of %s" % (name and "*%s*" % name or type_of(it))
    if t == "object" and ref and ref.split("/")[-1] not in ("count", "time"):
        return "*%s*" % ref.split("/")[-1]
    if ref.endswith("/count"):
        return "integer ≥ 0"
    if ref.endswith("/time"):
        return "UTC time `YYYY-MM-DDTHH:MM:SSZ`"
    return t


def table(title, obj, out):
    obj = resolve(obj)
    props = obj.get("properties", {})
    req = set(obj.get("required", []))
    out.append("### %s\n" % title)
    if obj.get("description"):
        out.append(obj["description"][0].upper() + obj["description"][1:].rstrip(".") + ".\n")
    out.append("| key | type | required | meaning |")
    out.append("| --- | --- | --- | --- |")
    for k, p in props.items():
        d = p.get("description") or resolve(p).get("description", "")
        out.append("| `%s` | %s | %s | %s |" % (k, type_of(p), "yes" if k in req else "", d.replace("|", "\\|")))
    if "additionalProperties" in obj and isinstance(obj["additionalProperties"], dict):
        out.append("| *any name* | %s | | %s |" % (type_of(obj["additionalProperties"]), ""))
    out.append("")


def render():
    out = [BEGIN, ""]
    table("Top level", schema, out)
    for name in ("host", "stack", "layer"):
        table("*%s*" % name, {"$ref": "#/$defs/" + name}, out)
    for cond in defs["layer"]["allOf"]:
        layer = cond["if"]["properties"]["layer"]["const"]
        then = dict(cond["then"])
        table("*layer* `%s`: keys beside `layer` and `devices`" % layer, then, out)
    for name in ("suite", "figure", "disk_util", "faults", "ciphers", "cipher_dm", "cipher_ssh"):
        table("*%s*" % name, {"$ref": "#/$defs/" + name}, out)
    out.append(END)
    return "\n".join(out)


doc = open(doc_path).read()
if BEGIN not in doc or END not in doc:
    sys.exit("%s: no GENERATED markers" % doc_path)
new = doc[:doc.index(BEGIN)] + render() + doc[doc.index(END) + len(END):]
if "--check" in sys.argv:
    if new != doc:
        sys.exit("%s is out of date: run scripts/results-schema-doc.py" % doc_path)
    sys.exit(0)
open(doc_path, "w").write(new)
