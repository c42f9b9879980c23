#!/usr/bin/env python3
"""Every program stackbench and its tests run must come from a package
scripts/install-deps.sh installs (issue 23: smbd and mount.cifs were used,
samba and cifs-utils were never installed, and CI passed only because its
machine had them by hand).

The list of programs is derived from the code, never typed here:
  C (src/**/*.c), where a child process is started:
    - functions that exec: execv*/execl*/posix_spawn*/libblockdev's
      bd_utils_exec_*, and (to a fixed point) every function of src/ that
      hands one of its own parameters to one of them (sb_export_cmd, ...);
    - at each call of one of those: the argv's first word - an array's
      initializer { "smbd", ... }, a variable initialized with a literal
      ("/sbin/modprobe"), a variable found by name (find_exe("modprobe", v)),
      an element of a literal array (tool_names[t]), or the first literal
      added to an argument builder (sb_mkfs_args_add(a, "mkfs.btrfs")),
      followed one call deep into functions of the same file;
    - execl*("name", ...): the literal;
    - a literal path into a bin directory ("/usr/sbin/smbd"), and a name
      given to a function that looks a program up (one testing X_OK);
    - shell text the code runs: "sh -c" literals, and literals starting
      "#!/bin/sh";
    - wrappers (unshare, timeout, ip netns exec, sh -c ...) count their
      command too, and `mount -t TYPE` counts mount(8)'s helper for TYPE.
  Shell (tests/**/*.sh, scripts/*.sh, scripts/sandbox/*): every word in a
    command position, minus bash's builtins and keywords (asked from bash),
    functions the scripts define, variables, and the project's own files.
  Python (tests/tools/*.py, tests/**/*.py, scripts/*.py): shutil.which(NAME)
    and the first literal of a subprocess call's list.
Each name is resolved with `command -v` and `dpkg -S` (both usrmerge paths,
then the symlink's target) to its Debian package, which must be listed in
scripts/install-deps.sh, or be a direct Depends/Pre-Depends of one listed
(apt installs those with it), or be Essential / Priority required (asked
from dpkg-query). A name that cannot be resolved is a failure too (not
installed: its package is missing from install-deps.sh).

  tests/tools/program_packages.py [--list] [ROOT]
Exit 0 when every program's package is listed, 1 otherwise (naming each).
"""
import os
import re
import subprocess
import sys

# mount(8) runs a userspace helper /sbin/mount.TYPE for these filesystem
# types; without it the mount fails (nfs-common, cifs-utils). Knowledge
# about mount(8), not a list of the project's programs.
MOUNT_HELPERS = {"nfs": "mount.nfs", "nfs4": "mount.nfs4", "cifs": "mount.cifs", "smb3": "mount.smb3"}

# Names the scanner finds in a command position that are no program of the
# machine (each says why). Keep it small.
NOT_PROGRAMS = {
    "stackbench": "the binary under test ($STACKBENCH_BIN, build/stackbench)",
}

# Exec sites whose program the scanner cannot tell from the code around
# them, by file and called function, each with where its program is counted.
OPAQUE_SITES = {
    ("src/sandbox/run.c", "run_boot"): "argv[0] is the user-mode-linux kernel (r->kernel), found by "
    "name in src/sandbox/probe.c: find_exe(\"linux.uml\"), which the X_OK rule counts",
    ("src/sys/child.c", "execv"): "sb_child runs its caller's argv: every struct sb_child initializer's "
    ".argv is scanned as an exec site at the caller (child_execs below)",
    ("src/sys/child.c", "execvp"): "the same: the caller's .argv, looked up in PATH",
    ("src/sys/child.c", "execve"): "the same, with the caller's environment",
    ("src/sys/child.c", "execvpe"): "the same, with the caller's environment, looked up in PATH",
    ("src/sandbox/run.c", "execv"): "argv[0] is the user-mode-linux kernel (u.argv from r->kernel), found by "
    "name in src/sandbox/probe.c: find_exe(\"linux.uml\"), which the X_OK rule counts",
    ("src/bench/engines/exec.c", "posix_spawnp"): "argv[0] is the job file's own program= (fio's "
    "exec engine runs what the job names): no program stackbench itself depends on",
}

# Wrappers: the command they run counts too. Value: how many non-option
# words come before the command (timeout's DURATION, chroot's DIR).
WRAPPERS = {"timeout": 1, "nice": 0, "ionice": 0, "setsid": 0, "env": 0, "unshare": 0, "nsenter": 0,
            "chroot": 1, "stdbuf": 0, "xargs": 0, "strace": 0, "taskset": 1, "flock": 1, "exec": 0,
            "command": 0, "time": 0, "nohup": 0, "sudo": 0, "builtin": 0}
# wrapper options that take a separate value
WRAPPER_OPTS = {"timeout": {"-k", "-s", "--kill-after", "--signal"}, "strace": {"-o", "-e", "-p", "-s", "-P"},
                "nice": {"-n"}, "ionice": {"-c", "-n"}, "xargs": {"-I", "-n", "-P", "-d", "-L", "-a"},
                "nsenter": {"-t", "--target"}, "unshare": {"--propagation"}, "env": {"-u"}}

EXEC_SEEDS = {"execv": 1, "execvp": 1, "execve": 1, "execvpe": 1, "posix_spawn": 3, "posix_spawnp": 3,
              "bd_utils_exec_and_report_error": 0, "bd_utils_exec_and_capture_output": 0,
              "g_spawn_sync": 1, "g_spawn_async": 1}


class Finding:
    def __init__(self):
        self.names = {}      # name -> first "file:line" it is used at
        self.unresolved = []  # exec sites whose program the scanner cannot tell

    def add(self, name, where):
        name = name.strip()
        if name and name not in self.names:
            self.names[name] = where


# ---------------------------------------------------------------- C

def strip_c_comments(text):
    """Comments become spaces (lines kept); strings are kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def c_literal(s):
    """The value of adjacent C string literals at the start of s, or None."""
    m = re.match(r'\s*((?:"(?:[^"\\]|\\.)*"\s*)+)', s)
    if not m:
        return None
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))
    return "".join(parts).encode().decode("unicode_escape")


def split_args(s):
    """Split a call's argument text at top-level commas."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(s):
        c = s[i]
        if c == '"':
            j = i + 1
            while j < len(s) and s[j] != '"':
                j += 2 if s[j] == "\\" else 1
            cur += s[i:j + 1]
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def calls(body, name):
    """(offset, [args]) of every call name(...) in body."""
    if name not in body:
        return
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), body):
        i, depth = m.end(), 1
        j = i
        while j < len(body) and depth:
            if body[j] == '"':
                j += 1
                while j < len(body) and body[j] != '"':
                    j += 2 if body[j] == "\\" else 1
            elif body[j] == "(":
                depth += 1
            elif body[j] == ")":
                depth -= 1
            j += 1
        yield m.start(), split_args(body[i:j - 1])


class CFunc:
    def __init__(self, path, name, params, body, line):
        self.path, self.name, self.params, self.body, self.line = path, name, params, body, line


def c_functions(path, text):
    funcs = []
    for m in re.finditer(r"^[A-Za-z_][\w \t\*]*?\b(\w+)\(([^;{}]*?)\)\s*\n\{\n(.*?)^\}", text, re.M | re.S):
        params = []
        for p in split_args(m.group(2)):
            pm = re.search(r"(\w+)\s*(\[\s*\w*\s*\])?\s*$", p)
            params.append(pm.group(1) if pm else "")
        funcs.append(CFunc(path, m.group(1), params, m.group(3), text.count("\n", 0, m.start(3)) + 1))
    return funcs


def exec_helpers(funcs):
    """Functions that exec, with the index of their argv parameter."""
    helpers = dict(EXEC_SEEDS)
    changed = True
    while changed:
        changed = False
        for f in funcs:
            if f.name in helpers:
                continue
            for h, idx in list(helpers.items()):
                for _, args in calls(f.body, h):
                    if idx >= len(args):
                        continue
                    arg = re.sub(r"^\(.*?\)\s*|^&", "", args[idx])
                    local = re.match(r"(\w+)$", arg)
                    if not local:
                        continue
                    v = local.group(1)
                    src = v if v in f.params else None
                    if src is None:
                        # a local argv filled from a parameter (argv[n++] = a->opt[i])
                        for p in f.params:
                            if p and fills_from(v, p, f.body):
                                src = p
                    if src is not None:
                        helpers[f.name] = f.params.index(src)
                        changed = True
                        break
                if f.name in helpers:
                    break
    return helpers


def fills_from(v, p, body):
    """Is the local array v, declared without a first word, filled from the
    parameter p (argv[n++] = a->opt[i])?"""
    if re.search(r"\b%s\s*\[[^]]*\]\s*=\s*\{\s*[^0\s}]" % re.escape(v), body):
        return False
    return re.search(r"\b%s\s*\[[^]=]+\]\s*=\s*[^=;{]*\b%s\b" % (re.escape(v), re.escape(p)), body) is not None


def first_words(var, func, funcs_by_name, file_text, depth=0):
    """What the first word of the argv (or argv builder) var in func can be."""
    body = func.body
    # an array initializer: var[...] = { FIRST, ...
    m = re.search(r"\b%s\s*\[[^]]*\]\s*=\s*\{\s*([^,}]+)" % re.escape(var), body)
    if m:
        return word_of(m.group(1).strip(), func, file_text)
    # made by a function of this file: what that function returns
    m = re.search(r"\b%s\s*=\s*(\w+)\s*\(" % re.escape(var), body)
    g = funcs_by_name.get(m.group(1)) if m else None
    if g and depth < 2:
        r = [v for v in re.findall(r"\breturn\s+(\w+)\s*;", g.body) if v != "NULL"]
        return first_words(r[-1], g, funcs_by_name, file_text, depth + 1) if r else []
    # the first statement that puts something into it: var[n++] = X, or
    # a builder call f(var, "word", ...), or a function of this file given var
    pat = r"\b%s\s*\[[^]=]+\]\s*=\s*([^;]+);|\b(\w+)\s*\(([^;]*\b%s\b[^;]*)\)\s*;" % (re.escape(var), re.escape(var))
    for m in re.finditer(pat, body):
        if m.group(1):
            return word_of(m.group(1), func, file_text)
        callee, args = m.group(2), split_args(m.group(3))
        if callee in ("if", "while", "for", "return", "sizeof"):
            continue
        if args and re.sub(r"^&", "", args[0]) == var and len(args) > 1 and c_literal(args[1]) is not None:
            return [c_literal(args[1])]
        g = funcs_by_name.get(callee)
        if g and depth < 2:
            for i, a in enumerate(args):
                if re.sub(r"^&", "", a) == var and i < len(g.params):
                    return first_words(g.params[i], g, funcs_by_name, file_text, depth + 1)
    return []


def word_of(expr, func, file_text):
    expr = re.sub(r"^\((?:const\s+)?\w+\s*\**\)\s*", "", expr.strip())
    expr = re.sub(r"^(?:g_)?strdup\s*\((.*)\)$", r"\1", expr)
    lit = c_literal(expr)
    if lit is not None:
        return [lit]
    m = re.match(r"(\w+)\s*\[[^]]*\]$", expr)
    if m:  # an element of a literal array
        am = re.search(r"\b%s\s*\[[^]]*\]\s*=\s*\{([^}]*)\}" % re.escape(m.group(1)), file_text)
        if am:
            return [c_literal(a) for a in split_args(am.group(1)) if c_literal(a) is not None]
    m = re.match(r"(\w+)$", expr)
    if m:
        v = m.group(1)
        im = re.search(r"\b%s\s*(?:\[[^]]*\])?\s*=\s*(\"[^;]*?\")\s*[,;]" % re.escape(v), func.body)
        if im:
            return [c_literal(im.group(1))]
        fm = re.search(r"\w+\s*\(\s*(\"[^\"]*\")\s*,\s*%s\b" % re.escape(v), func.body)
        if fm:
            return [c_literal(fm.group(1))]
    return []


CHILD_INIT = re.compile(r"(?:\(struct sb_child\)|struct sb_child\s+\w+\s*=)\s*\{([^;{}]*)\}\s*;")


def child_execs(text):
    """src/sys/child.c runs the argv its caller puts in a struct sb_child:
    an initializer `struct sb_child c = { .argv = X, ... };` is an exec
    site of X, so it is read as if `execv(NULL, X);` followed it (line
    numbers kept: the call goes on the same line)."""
    def add(m):
        a = re.search(r"\.argv\s*=\s*([^,}]+)", m.group(1))
        return m.group(0) + (" execv(NULL, %s);" % a.group(1).strip() if a else "")
    return CHILD_INIT.sub(add, text)


def scan_c(root, found):
    files = []
    for d, _, fs in os.walk(os.path.join(root, "src")):
        files += [os.path.join(d, f) for f in sorted(fs) if f.endswith(".c")]
    texts = {f: child_execs(strip_c_comments(open(f, encoding="utf-8").read())) for f in sorted(files)}
    funcs = [fn for f, t in texts.items() for fn in c_functions(f, t)]
    helpers = exec_helpers(funcs)
    for path, text in texts.items():
        rel = os.path.relpath(path, root)
        local = {fn.name: fn for fn in funcs if fn.path == path}
        for fn in local.values():
            for h, idx in helpers.items():
                for off, args in calls(fn.body, h):
                    where = "%s:%d" % (rel, fn.line + fn.body.count("\n", 0, off))
                    if fn.name in helpers and h in EXEC_SEEDS and re.match(r"\w+\[0\]$", args[0] if args else ""):
                        pass  # the helper itself: its callers are scanned
                    if idx >= len(args):
                        continue
                    arg = re.sub(r"^\(.*?\)\s*|^&", "", args[idx])
                    if fn.name in helpers and (arg in fn.params or any(
                            fills_from(arg, p, fn.body) for p in fn.params if p)):
                        continue  # passes its caller's argv on: scanned at the callers
                    words = first_words(arg, fn, local, text) if re.match(r"\w+$", arg) else []
                    if not words and (rel, h) in OPAQUE_SITES:
                        continue
                    if not words:
                        found.unresolved.append("%s: %s(%s): cannot tell the program" % (where, h, arg))
                    for w in words:
                        argv_literal(fn, arg, w, where, found)
            for h in ("execl", "execlp", "execle"):
                for off, args in calls(fn.body, h):
                    lit = c_literal(args[0]) if args else None
                    where = "%s:%d" % (rel, fn.line + fn.body.count("\n", 0, off))
                    if lit:
                        found.add(lit, where)
                    else:
                        found.unresolved.append("%s: %s: cannot tell the program" % (where, h))
        for m in re.finditer(r'"((?:/usr)?/s?bin/[\w.+-]+)"', text):
            found.add(m.group(1), "%s:%d" % (rel, text.count("\n", 0, m.start()) + 1))
        for m in re.finditer(r'"#!/bin/sh\\n', text):
            scan_sh_text(c_literal(text[m.start():]), rel, text.count("\n", 0, m.start()) + 1, found, set())
        # functions that look a program up by name (test X_OK on it)
        for fn in local.values():
            if "X_OK" in fn.body and fn.params:
                for g in funcs:
                    for off, args in calls(g.body, fn.name):
                        lit = c_literal(args[0]) if args else None
                        if lit and re.match(r"^[\w.+-]+$", lit):
                            found.add(lit, "%s:%d" % (os.path.relpath(g.path, root), g.line + g.body.count("\n", 0, off)))


def argv_literal(fn, arr, first, where, found):
    """The whole argv when it is an initializer: wrappers, sh -c, mount -t."""
    m = re.search(r"\b%s\s*\[[^]]*\]\s*=\s*\{(.*?)\}\s*;" % re.escape(arr), fn.body, re.S)
    words = [first]
    if m:
        items = split_args(m.group(1))
        words = [c_literal(a) if c_literal(a) is not None else "$var" for a in items if a != "NULL"]
        words[0] = first
    scan_argv(words, where, found, set())


# ---------------------------------------------------------------- argv

def scan_argv(words, where, found, funcs):
    """An argv (a list of words): its program, a wrapper's command, sh -c's text."""
    i = 0
    while i < len(words):
        w = words[i]
        if "$" in w or not w:
            return  # a variable or a computed name: nothing to resolve
        if "=" in w and re.match(r"^\w+=", w):
            i += 1
            continue
        name = w
        base = os.path.basename(name)
        if name in funcs and base not in WRAPPERS:
            return
        if name not in funcs:
            found.add(name, where)
        rest = words[i + 1:]
        if base in ("sh", "bash", "dash") and len(rest) >= 2 and rest[0] == "-c":
            if not rest[1].startswith("$"):
                scan_sh_text(rest[1], where.rsplit(":", 1)[0], int(where.rsplit(":", 1)[1] or 0), found, funcs)
            return
        if base == "mount" and "-t" in rest:
            t = rest[rest.index("-t") + 1] if rest.index("-t") + 1 < len(rest) else ""
            for ty in t.split(","):
                if ty in MOUNT_HELPERS:
                    found.add(MOUNT_HELPERS[ty], where)
            return
        if base == "ip" and len(rest) >= 3 and rest[0] == "netns" and rest[1] == "exec":
            i += 4
            continue
        if base == "find" and "-exec" in rest:
            j = rest.index("-exec") + 1
            if j < len(rest):
                scan_argv(rest[j:], where, found, funcs)
            return
        if base not in WRAPPERS:
            return
        # skip the wrapper's options and fixed arguments
        i += 1
        opts = WRAPPER_OPTS.get(base, set())
        while i < len(words) and words[i].startswith("-"):
            if words[i] in opts:
                i += 1
            i += 1
        if base == "env":
            while i < len(words) and "=" in words[i]:
                i += 1
        i += WRAPPERS[base]


# ---------------------------------------------------------------- shell

KEYWORDS_BEFORE_CMD = {"then", "do", "else", "elif", "if", "while", "until", "!", "{", "(", "time"}
SEPS = {";", "&", "&&", "||", "|", "(", "{", "|&", ";;", "\n"}


def shell_tokens(text):
    """Words and operators of shell text; $(...) and `...` contents are
    returned separately as nested texts. Heredoc bodies are dropped."""
    toks, nested = [], []
    i, n = 0, len(text)
    pending_heredocs = []
    line = 1
    cur, cur_line = None, 1

    def flush():
        nonlocal cur
        if cur is not None:
            toks.append((cur, cur_line))
            cur = None

    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            if text[i + 1] == "\n":
                i += 2
                line += 1
                continue
            cur = (cur or "") + text[i + 1]
            i += 2
            continue
        if c == "\n":
            flush()
            toks.append(("\n", line))
            line += 1
            i += 1
            for delim, strip in pending_heredocs:
                while i < n:
                    j = text.find("\n", i)
                    j = n if j < 0 else j
                    ln = text[i:j]
                    i = j + 1
                    line += 1
                    if (ln.lstrip("\t") if strip else ln) == delim:
                        break
            pending_heredocs = []
            continue
        if c in " \t":
            flush()
            i += 1
            continue
        if c == "#" and cur is None:
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            if cur is None:
                cur_line = line
            cur = (cur or "") + text[i + 1:j]
            line += text.count("\n", i, j)
            i = j + 1
            continue
        if c == '"':
            j = i + 1
            s = ""
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    s += text[j:j + 2]
                    j += 2
                    continue
                if text.startswith("$(", j) and not text.startswith("$((", j):
                    k = match_paren(text, j + 1)
                    nested.append((text[j + 2:k], line + text.count("\n", i, j)))
                    s += "$(...)"
                    j = k + 1
                    continue
                s += text[j]
                j += 1
            if cur is None:
                cur_line = line
            cur = (cur or "") + s
            line += text.count("\n", i, j)
            i = j + 1
            continue
        if text.startswith("$((", i) or (text.startswith("((", i) and cur is None):
            k = match_paren(text, i + (1 if c == "$" else 0))
            if c == "$":
                cur = (cur or "") + "$((...))"
            line += text.count("\n", i, k)
            i = k + 1
            continue
        if c == "(" and cur is not None and re.fullmatch(r"\w+(\[[^]]*\])?\+?=", cur):
            k = match_paren(text, i)  # name=( ... ): an array's words
            line += text.count("\n", i, k)
            cur += "(...)"
            i = k + 1
            continue
        if text.startswith("$(", i) or text.startswith("<(", i) or text.startswith(">(", i):
            k = match_paren(text, i + 1)
            nested.append((text[i + 2:k], line))
            if cur is None:
                cur_line = line
            cur = (cur or "") + "$(...)"
            line += text.count("\n", i, k)
            i = k + 1
            continue
        if c == "`":
            j = text.find("`", i + 1)
            nested.append((text[i + 1:j], line))
            cur = (cur or "") + "$(...)"
            i = j + 1
            continue
        if text.startswith("<<<", i):
            flush()
            toks.append(("<<<", line))
            i += 3
            continue
        if text.startswith("<<", i):
            m = re.match(r"<<(-?)\s*(['\"]?)([\w.-]+)\2", text[i:])
            if m:
                flush()
                pending_heredocs.append((m.group(3), m.group(1) == "-"))
                i += m.end()
                continue
        if c == "$" and i + 1 < n and text[i + 1] == "{":
            k = text.find("}", i)
            cur = (cur or "") + text[i:k + 1]
            i = k + 1
            continue
        for op in ("&&", "||", ";;", "|&", ";&", "&>", ">>", ">&", "<&", ";", "&", "|", "(", ")", ">", "<"):
            if text.startswith(op, i):
                if op in (">", ">>", "<", "&>", ">&", "<&") and cur is not None and re.fullmatch(r"\d+", cur):
                    cur = None  # 2>&1: the fd number belongs to the redirection
                flush()
                toks.append((op, line))
                i += len(op)
                break
        else:
            if cur is None:
                cur_line = line
            if c == "{" and cur is None and i + 1 < n and text[i + 1] in " \t\n":
                toks.append(("{", line))
                i += 1
                continue
            cur = (cur or "") + c
            i += 1
    flush()
    return toks, nested


def match_paren(text, i):
    """Index of the ')' matching the '(' at i (quotes respected)."""
    depth, j, n = 0, i, len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "'":
            j = text.find("'", j + 1)
            if j < 0:
                return n
        elif c == '"':
            j += 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return n


REDIRS = {">", ">>", "<", "&>", ">&", "<&", "<<<"}


def scan_sh_text(text, rel, line0, found, funcs):
    toks, nested = shell_tokens(text)
    for t, ln in nested:
        scan_sh_text(t, rel, line0 + ln - 1, found, funcs)
    at_cmd, case_pat, stack, skip_until = True, False, [], None
    words, wline = [], 0

    def command_done():
        nonlocal words
        if words:
            scan_argv([w for w in words], "%s:%d" % (rel, wline), found, funcs | BUILTINS)
        words = []

    i = 0
    while i < len(toks):
        t, ln = toks[i]
        if skip_until:
            if t in skip_until:
                skip_until = None
                at_cmd = True
            i += 1
            continue
        if case_pat:
            if t == ")":
                case_pat = False
                at_cmd = True
            elif t == "esac":
                case_pat = False
                stack.pop() if stack else None
                at_cmd = False
            i += 1
            continue
        if t in REDIRS:
            i += 2
            continue
        if t in SEPS or t == ")" or t == "}":
            command_done()
            at_cmd = True
            if t == ";;" or t == ";&":
                case_pat = True
            i += 1
            continue
        if at_cmd and not words:
            if t in KEYWORDS_BEFORE_CMD or t in ("then", "do", "done", "fi", "esac", "else", "}"):
                if t == "esac" and stack:
                    stack.pop()
                i += 1
                continue
            if t == "case":
                stack.append("case")
                skip_until = {"in"}
                i += 1
                # after 'in' comes the first pattern
                while i < len(toks) and toks[i][0] != "in":
                    i += 1
                i += 1
                skip_until = None
                case_pat = True
                continue
            if t in ("for", "select"):
                skip_until = {"do"}
                i += 1
                continue
            if t == "[[":
                skip_until = {"]]"}
                i += 1
                continue
            if t == "function":
                i += 2
                continue
            if i + 2 < len(toks) and toks[i + 1][0] == "(" and toks[i + 2][0] == ")":
                i += 3  # name() { ... }: a function definition
                continue
            if re.match(r"^\w+(\[[^]]*\])?\+?=", t):
                i += 1  # an assignment before the command (or alone)
                continue
            words, wline = [t], ln
            i += 1
            continue
        if words:
            words.append(t)
        i += 1
    command_done()


def shell_functions(texts):
    names = set()
    for t in texts:
        names |= set(re.findall(r"^\s*(?:function\s+)?([\w.:-]+)\s*\(\)\s*\{?", t, re.M))
        names |= set(re.findall(r"^\s*function\s+([\w.:-]+)", t, re.M))
    return names


def scan_shell(root, found):
    files = []
    for d in ("tests", "scripts"):
        for dp, _, fs in os.walk(os.path.join(root, d)):
            for f in sorted(fs):
                p = os.path.join(dp, f)
                if f.endswith(".sh") or (d == "scripts" and not f.endswith(".py") and is_shell(p)):
                    files.append(p)
    files.append(os.path.join(root, ".ci", "run"))
    texts = {f: open(f, encoding="utf-8").read() for f in sorted(files) if os.path.exists(f)}
    comp = os.path.join(root, "completion")
    extra = [open(os.path.join(comp, f), encoding="utf-8").read() for f in sorted(os.listdir(comp))] \
        if os.path.isdir(comp) else []
    funcs = shell_functions(list(texts.values()) + extra)
    for f, t in texts.items():
        rel = os.path.relpath(f, root)
        scan_sh_text(t, rel, 1, found, funcs)
        # probed, not run here: `command -v NAME`, and `for t in A B; do
        # command -v "$t"` (a test that skips without them needs them too)
        for m in re.finditer(r"\bcommand -v (?:--\s+)?([A-Za-z][\w.+-]*)", t):
            found.add(m.group(1), "%s:%d" % (rel, t.count("\n", 0, m.start()) + 1))
        for m in re.finditer(r"\bfor (\w+) in ([^;\n$]*)[;\n]\s*do\b[^\n]*\n?[^\n]*?command -v \"?\$\{?\1\b", t):
            for w in m.group(2).split():
                found.add(w, "%s:%d" % (rel, t.count("\n", 0, m.start()) + 1))


def is_shell(p):
    try:
        with open(p, encoding="utf-8") as f:
            first = f.readline()
    except (UnicodeDecodeError, OSError):
        return False
    return bool(re.match(r"#!\s*/bin/(ba)?sh|#!/usr/bin/env (ba)?sh", first))


# ---------------------------------------------------------------- python

def scan_python(root, found):
    for d in ("tests", "scripts"):
        for dp, _, fs in os.walk(os.path.join(root, d)):
            for f in sorted(fs):
                if not f.endswith(".py"):
                    continue
                p = os.path.join(dp, f)
                t = open(p, encoding="utf-8").read()
                rel = os.path.relpath(p, root)
                for m in re.finditer(r"shutil\.which\(\s*['\"]([\w.+-]+)['\"]", t):
                    found.add(m.group(1), "%s:%d" % (rel, t.count("\n", 0, m.start()) + 1))
                for m in re.finditer(r"subprocess\.\w+\(\s*\[\s*['\"]([\w./+-]+)['\"]", t):
                    found.add(m.group(1), "%s:%d" % (rel, t.count("\n", 0, m.start()) + 1))


# ---------------------------------------------------------------- resolve

def sh(cmd, *args):
    r = subprocess.run(cmd + list(args), capture_output=True, text=True)
    return r.returncode, r.stdout


def bash_builtins():
    _, out = sh(["bash", "-c", "compgen -b; compgen -k"])
    return set(out.split()) | {"[[", "]]", "{", "}"}


BUILTINS = bash_builtins()


SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def locate(names):
    """name -> the path `command -v` finds (in Debian's root PATH), or None."""
    script = 'for n; do p=$(command -v -- "$n") || p=; printf "%s\\t%s\\n" "$n" "$p"; done'
    r = subprocess.run(["sh", "-c", script, "sh"] + list(names), capture_output=True, text=True,
                       env={"PATH": SYSTEM_PATH, "LC_ALL": "C"})
    out = {}
    for ln in r.stdout.splitlines():
        n, _, p = ln.partition("\t")
        out[n] = p if p.startswith("/") else None
    return out


def candidates(path):
    """The paths dpkg may know a program by: usrmerge's both, then the target."""
    c = [path]
    for real in (path, os.path.realpath(path)):
        if real not in c:
            c.append(real)
        for a, b in (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/")):
            if real.startswith(a):
                c.append(b + real[len(a):])
            elif real.startswith(b):
                c.append(a + real[len(b):])
    return c


def owners(paths):
    """path -> package, from one `dpkg -S` run (diversions skipped)."""
    r = subprocess.run(["dpkg", "-S"] + sorted(set(paths)), capture_output=True, text=True,
                       env={"PATH": SYSTEM_PATH, "LC_ALL": "C"})
    out = {}
    for ln in r.stdout.splitlines():
        if ln.startswith("diversion"):
            continue
        pkg, _, p = ln.partition(": ")
        for q in p.split(", "):
            out.setdefault(q.strip(), pkg.split(",")[0].split(":")[0].strip())
    return out


def resolve(names):
    """name -> (path, package): path None when not installed, package ''
    when no package owns it."""
    found = locate([n for n in names if "/" not in n])
    paths = {n: (n if os.path.exists(n) else None) if "/" in n else found.get(n) for n in names}
    cands = {n: candidates(p) for n, p in paths.items() if p}
    own = owners([c for cs in cands.values() for c in cs])
    return {n: (paths[n], next((own[c] for c in cands.get(n, []) if c in own), "")) for n in names}


def depends_of(pkgs):
    """What the installed packages pkgs Depend or Pre-Depend on (apt always
    installs those with them; alternatives: every one counts)."""
    r = subprocess.run(["dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}\\n"] + sorted(pkgs),
                       capture_output=True, text=True)
    return {re.split(r"[\s(:]", d.strip())[0] for d in re.split(r"[,|]", r.stdout) if d.strip()}


def essentials(pkgs):
    """The packages among pkgs that are Essential or Priority required."""
    r = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Essential} ${Priority}\\n"] + sorted(set(pkgs)),
                       capture_output=True, text=True)
    out = set()
    for ln in r.stdout.splitlines():
        f = ln.split()
        if len(f) >= 2 and (f[1] == "yes" or f[-1] == "required"):
            out.add(f[0])
    return out


def listed_packages(root):
    text = open(os.path.join(root, "scripts", "install-deps.sh"), encoding="utf-8").read()
    m = re.search(r"^pkgs=\((.*?)^\)", text, re.M | re.S)
    body = re.sub(r"#[^\n]*", "", m.group(1)) if m else ""
    return set(body.split())


def essential(pkg):
    rc, out = sh(["dpkg-query", "-W", "-f=${Essential} ${Priority}", pkg])
    return rc == 0 and (out.split()[:1] == ["yes"] or out.split()[-1:] == ["required"])


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), "..", ".."))
    found = Finding()
    scan_c(root, found)
    scan_shell(root, found)
    scan_python(root, found)
    pkgs = listed_packages(root)
    bad, rows, names = list(found.unresolved), [], []
    for name, where in sorted(found.names.items()):
        if name in NOT_PROGRAMS or name in BUILTINS:
            continue
        if "/" in name and not name.startswith("/"):
            if os.path.exists(os.path.join(root, name)) or name.startswith(("./", "../")):
                continue  # the project's own scripts and build outputs
        if not re.match(r"^[\w./+-]+$", name) or name.startswith("-"):
            bad.append("%s: %r in a command position is no program name the scanner knows" % (where, name))
            continue
        names.append(name)
    res = resolve(names)
    ess = essentials([p for _, p in res.values() if p]) | depends_of(pkgs)
    for name in names:
        where, (path, pkg) = found.names[name], res[name]
        if path is None:
            bad.append("%s (used at %s): not installed on this machine, so its package cannot be "
                       "checked: install it and list its package in scripts/install-deps.sh" % (name, where))
        elif not pkg:
            bad.append("%s (%s, used at %s): no Debian package owns it" % (name, path, where))
        elif pkg not in pkgs and pkg not in ess:
            bad.append("%s (%s, used at %s): package %s is not in scripts/install-deps.sh (nor Essential, "
                       "Priority required, or a dependency of one listed)" % (name, path, where, pkg))
        rows.append("%-24s %-28s %s" % (name, pkg or "-", where))
    if "--list" in sys.argv:
        print("\n".join(rows))
    for b in bad:
        print("program_packages: " + b)
    print("program_packages: %d programs checked, %d problems" % (len(rows), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
