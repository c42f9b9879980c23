#!/usr/bin/env python3
"""No code outside a layer's own files names a layer (issue 26).

The registry is the one list of layers: report/, run/, core/... ask a
layer's ops (its label, columns, checks, hooks), never compare a string
against a layer's name nor look a layer up by a literal name. This check
reads every C file under SRC and fails for each string literal that is a
layer's name, outside:
  - src/layers/ (the layers' own files), and
  - the own directory of a layer defined elsewhere: a directory named
    after the layer whose ops it defines (src/export/ for "export").
Comments are skipped. The layer names come from the registry itself:
core/registry.h's SB_LAYER(x) lines and each sb_layer_x's .name.

What remains is listed in ALLOW below, each with why it is no lookup of a
layer (a kernel facility such as md or dm, the markdown format "md", a key
of the stack file or the results...). A hit not in the list fails; an
entry that matches nothing any more is printed (remove it), not failed.

Usage: layer_names.py SRC_DIR  (meson test: suite cli, < 1 s)
"""
import os
import re
import sys

# (path under SRC, literal, a piece of its line, why it is no layer lookup)
ALLOW = [
    ("sandbox/probe.c", "md", 'sb_kernel_has("md")',
     "the kernel's md driver (sys/kernel.h's need), not the md layer"),
    ("sandbox/probe.c", "md", 'nmd ? "md"',
     "the message naming the kernel's md driver the sandbox supplies"),
    ("sandbox/probe.c", "md", '!strcmp(n->what[i], "md")',
     "a kernel need (\"md\", \"dm\"): the sandbox's kernel facilities"),
    ("sandbox/probe.c", "md", 'sb_kernel_needs_has(needs, "md")',
     "a kernel need: the md driver, not the layer"),
    ("sys/kernel.c", "md", 'if (!strcmp(what, "md"))',
     "the kernel fact \"md\" (sys/kernel.h), which the md layer needs"),
    ("sys/kernel.c", "md", 'snprintf(out, len, "md")',
     "the kernel module providing the md need"),
    ("sys/capture.c", "loop", '{ "loop", "loop" }',
     "kernel device-name prefixes (loopN, mdN) in the environment capture"),
    ("sys/capture.c", "md", '{ "md", "md" }',
     "kernel device-name prefix mdN in the environment capture"),
    ("report/format.c", "md", '"markdown", "md"',
     "the Markdown format's short name, --format md"),
    ("report/columns.c", "export", 'sb_json_get(res[0], "export")',
     "the results' top-level key \"export\" (where the suites ran: its label), a results-schema key"),
    ("spec/options.c", "loop", '{ "loop", SB_OPT_SECTION',
     "the stack file's devices.loop section (one of the two kinds of the shared devices section)"),
    ("spec/options.c", "disks", '{ "disks", SB_OPT_DISKS',
     "the stack file's devices.disks key (the other kind of the devices section)"),
    ("spec/options.c", "ext4", 'FLD(sb_fs_spec, type), "ext4"',
     "fs.type's default value, a filesystem type as mkfs names it"),
    ("spec/output.c", "disks", '"disks" : "loop"',
     "devices.kind as the stack file writes it (requested.devices.kind)"),
    ("spec/output.c", "loop", '"disks" : "loop"',
     "devices.kind as the stack file writes it (requested.devices.kind)"),
    ("run/run.c", "export", '"export" : "faults"',
     "the refusal names the stack file's section (export:, faults:)"),
    ("run/export_rows.c", "export", 'json_object_object_add(local, "export", o)',
     "the results key \"export\" of the local row (docs/results-schema.json)"),
    ("run/export_rows.c", "export", 'json_object_new_string("export")',
     "the per-layer row's layer field of the export rows (written here, not looked up)"),
    ("run/export_rows.c", "export", 'json_object_object_add(*out, "export", o)',
     "the results key \"export\" of a client row (docs/results-schema.json)"),
    ("run/export_rows.c", "export", 'sb_json_get(res, "export")',
     "the results key \"export\" (local_bound, local_again)"),
    ("run/export_rows.c", "export", 'sb_json_get(local, "export")',
     "the results key \"export\" of the local row"),
    ("bench/degrade.c", "md", 'const char *kname = "md"',
     "bench/degrade.c (not this branch's to change): the stack_state_after.md key it writes, "
     "read by md's own degraded column (layers/md_report.c); the kernel name's fallback"),
    ("bench/degrade.c", "md", 'json_object_object_add(st, "md", md)',
     "bench/degrade.c: the results key stack_state_after.md (docs/results-schema.json)"),
    ("bench/suites/copy.c", "ext4", '{ 0xEF53, "ext4" }',
     "statfs magic numbers to filesystem type names (the copy suite's target), not layers"),
    ("bench/suites/copy.c", "xfs", '{ 0x58465342, "xfs" }',
     "statfs magic numbers to filesystem type names"),
    ("bench/suites/copy.c", "btrfs", '{ 0x9123683E, "btrfs" }',
     "statfs magic numbers to filesystem type names"),
    ("bench/jobargs.c", "loop", '{ "loops", "loop", JT_U32',
     "fio's option loops and its alias loop (HOWTO.rst), not the loop layer"),
]


def literals(text):
    """(line number, string literal's text) of every string literal of C
    source text, comments and character constants skipped."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
        elif c in "\"'":
            j, buf = i + 1, []
            while j < n and text[j] != c:
                if text[j] == "\\" and j + 1 < n:
                    buf.append(text[j:j + 2])
                    j += 2
                    continue
                if text[j] == "\n":
                    break
                buf.append(text[j])
                j += 1
            if c == '"':
                out.append((line, "".join(buf)))
            i = j + 1
        else:
            i += 1
    return out


def c_files(src, exts, skip=()):
    """(path, text) of every file under src ending in one of exts, but for
    the directories (relative to src, first level) in skip."""
    for root, _, files in os.walk(src):
        if os.path.relpath(root, src).split(os.sep)[0] in skip:
            continue
        for f in sorted(files):
            if f.endswith(exts):
                path = os.path.join(root, f)
                yield path, open(path, errors="replace").read()


def layer_names(src):
    """{name: directory of its ops' file} from the registry (core/registry.h
    and each sb_layer_X's .name)."""
    reg = open(os.path.join(src, "core", "registry.h")).read()
    reg = re.sub(r"/\*.*?\*/", "", reg, flags=re.S)
    want = re.findall(r"^\s*SB_LAYER\((\w+)\)", reg, flags=re.M)
    if len(want) < 5:
        sys.exit(f"FAIL: {len(want)} layers in core/registry.h: cannot read the registry")
    found = {}
    for path, text in c_files(src, (".c",)):
        for var in want:
            m = re.search(r"const struct sb_layer_ops sb_layer_%s\s*=\s*\{(.*?)\n\};" % var, text, flags=re.S)
            if m:
                name = re.search(r'\.name\s*=\s*"([^"]+)"', m.group(1))
                if not name:
                    sys.exit(f"FAIL: sb_layer_{var} in {path} has no .name")
                found[var] = (name.group(1), os.path.relpath(os.path.dirname(path), src))
    missing = [v for v in want if v not in found]
    if missing:
        sys.exit(f"FAIL: no ops found for registry entries {missing}")
    return dict(found.values())


def own_dirs(names):
    """The layers' own directories: layers/, and a directory named after
    the layer whose ops it defines (export/)."""
    dirs = {"layers"}
    for name, d in names.items():
        if os.path.basename(d) == name:
            dirs.add(d)
    return dirs


def hits(src, names, dirs):
    out = []
    for path, text in c_files(src, (".c", ".h"), dirs):
        lines = text.split("\n")
        for line, lit in literals(text):
            if lit in names:
                out.append((os.path.relpath(path, src), line, lit, lines[line - 1].strip()))
    return out


def self_test():
    """The scanner finds a literal name in code, and none in comments or
    character constants: a check that could never fail would prove nothing."""
    code = ('/* "md" */ x = sb_results_built_layer(res, "luks"); // "md"\n'
            'c = \'"\'; y = "md\\"x"; if (!strncmp(n, "md", 2)) z = "fine";\n')
    got = [(ln, s) for ln, s in literals(code) if s in ("md", "luks")]
    if got != [(1, "luks"), (2, "md")]:
        sys.exit(f"FAIL: the scanner itself: {got}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    self_test()
    names = layer_names(src)
    dirs = own_dirs(names)
    used = set()
    bad = []
    for path, line, lit, text in hits(src, names, dirs):
        k = next((i for i, a in enumerate(ALLOW) if a[0] == path and a[1] == lit and a[2] in text), None)
        if k is None:
            bad.append(f"{path}:{line}: \"{lit}\" names a layer: {text}")
        else:
            used.add(k)
    for i, a in enumerate(ALLOW):
        if i not in used:
            print(f"note: allow-list entry matches nothing any more (remove it): {a[0]} \"{a[1]}\" {a[2]}")
    print(f"{len(names)} layers ({', '.join(sorted(names))}); their own directories: {', '.join(sorted(dirs))}; "
          f"{len(used)} allowed non-layer uses")
    if bad:
        print("FAIL: outside a layer's own files, code names a layer (ask its ops: core/layer.h, "
              "report/layer_report.h), or list the use in ALLOW with why it is no layer lookup:")
        print("\n".join(bad))
        sys.exit(1)
    print("ok: no code outside the layers' own files names a layer")


if __name__ == "__main__":
    main()
