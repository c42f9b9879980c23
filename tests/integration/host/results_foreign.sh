#!/bin/bash
# Results files from other machines (issue 24): whatever a file holds,
# compare (every format), report and the per-layer table render it or exit 2
# with a message naming the file and the key; no crash, no hang, no escape
# sequence on the terminal (report -o - too), no formula in a CSV cell, no
# write through a link, and a page built from them runs no script from them.
# Each hostile file is made here from a golden one. About 20 s (loaded).
set -u
. "$(dirname "$0")/../lib.sh"
sb_test results-foreign --scratch
good=$src/tests/golden/results/ext4.json
mk() { # NAME PYTHON-EXPR-ON-r: a copy of the golden file, changed
	python3 - "$good" "$tmp/$1.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
}
# CMD... : run with a time limit; rc and output (stdout+stderr) in $rc, $out
run() { out=$(timeout 20 "$@" 2>&1); rc=$?; }
refused() { # NAME KEY-TEXT: every reader exits 2 naming file and key, no crash
	local f=$tmp/$1.json fmt
	for fmt in text csv json markdown bonnie-csv html; do
		run "$sb" compare --format "$fmt" "$f"
		[ $rc -eq 2 ] && grep -qF "$f: $2" <<< "$out" || { bad "$1: compare --format $fmt: rc $rc: $out"; return; }
	done
	run "$sb" compare --per-layer "$f"
	[ $rc -eq 2 ] && grep -qF "$f: $2" <<< "$out" || { bad "$1: compare --per-layer: rc $rc: $out"; return; }
	run "$sb" report -o "$tmp/r.html" "$f"
	[ $rc -eq 2 ] && grep -qF "$f: $2" <<< "$out" || { bad "$1: report: rc $rc: $out"; return; }
	ok "$1: refused with '$2'"
}

mk null-layer 'r["stack"]["built"][2]["layer"] = None'
refused null-layer "stack.built[2].layer: expected a string, got null"
mk null-level 'next(l for l in r["stack"]["built"] if l["layer"] == "md")["level"] = None'
refused null-level "stack.built[1].level: expected a string, got null"
mk null-note 'r["suites"][0]["notes"] = [None]'
refused null-note "suites[0].notes[0]: expected a string, got null"
mk no-requested 'del r["stack"]["requested"]'
refused no-requested 'stack has no "requested"'
mk mixed-rows 'r["per_layer"] = [{"order": 0, "layer": "md", "device": "/dev/md0", "figures": {}}, 7]'
refused mixed-rows "per_layer[1]: expected an object, got an integer"
mk rows 'r["per_layer"] = [{"order": i, "layer": "md", "device": "/dev/md0", "figures": {"seq_read_mbs": 1.0}} for i in range(10000)]'
refused rows "per_layer: 10000 entries, more than the 256"
python3 -c 'import sys; sys.stdout.write(open(sys.argv[1]).read() * 2)' "$good" > "$tmp/two.json"
refused two "not one JSON document: more follows the first"
head -c $((9 << 20)) /dev/zero | tr '\0' ' ' > "$tmp/big.json"
refused big "not a results file (a regular file of at most 8 MiB)"
# a FIFO (the open blocked until a writer came: every reader hung) and a
# link to /dev/zero: refused at once
mkfifo "$tmp/fifo.json"
refused fifo "not a results file (a regular file of at most 8 MiB)"
ln -s /dev/zero "$tmp/zero.json"
refused zero "not a results file (a regular file of at most 8 MiB)"

# numbers and nesting nobody writes: an integer past 64 bits (json-c read it
# back as 2^64 and the table showed that), 1e308 (its %.0f was cut to a
# wrong 63-digit number), NaN (json-c takes the literal; shown as "-"), a
# nesting 100,000 deep
mk bigint 'r["suites"][0]["figures"]["block_output"]["value"] = 10 ** 400'
refused bigint "suites[0].figures.block_output.value: a number out of range (past 64 bits)"
mk huge 'r["suites"][0]["figures"]["block_output"]["value"] = 1e308; r["suites"][0]["figures"]["block_input"]["value"] = float("nan")'
run "$sb" compare --columns stack,write,read "$tmp/huge.json"
[ $rc -eq 0 ] && grep -qE '^ext4 +1e\+308 +- *$' <<< "$out" && ok "1e308 and NaN render as 1e+308 and -" ||
	bad "huge: rc $rc: $out"
python3 -c 'import sys; t = open(sys.argv[1]).read().rstrip(); open(sys.argv[2], "w").write(t[:-1] + ", \"x\": " + "[" * 100000 + "]" * 100000 + "}")' \
	"$good" "$tmp/deep.json"
refused deep "not a valid JSON results file: nesting too deep"
# Unicode bidirectional controls in names (U+202E turns "cod.exe" around on
# the screen): '?' on the terminal, like the other controls
mk bidi 'r["stack"]["name"] = "ab\u202ecod.exe\u2066x\u2069\u200f"'
run "$sb" compare --columns stack,write "$tmp/bidi.json"
[ $rc -eq 0 ] && ! grep -q $'\xe2\x80\xae\|\xe2\x81\xa6\|\xe2\x81\xa9\|\xe2\x80\x8f' <<< "$out" && grep -q '^ab?cod.exe?x??' <<< "$out" &&
	ok "bidi controls in a name: '?' on the terminal" || bad "bidi: rc $rc: $out"

# one bad file among good ones: its name and key, the others' rows, exit 2
run "$sb" compare "$good" "$tmp/null-layer.json" "$src/tests/golden/results/luks512.json"
[ $rc -eq 2 ] && grep -q "null-layer.json: stack.built\[2\].layer" <<< "$out" &&
	grep -q "^EXT4  " <<< "$out" && grep -q "^EXT4 on LUKS  512" <<< "$out" && ok "a bad file among good ones: the others render, exit 2" ||
	bad "mixed files: rc $rc: $out"

# names and notes with control sequences reach no terminal; a name a
# spreadsheet would run is neutralised in CSV and bonnie-CSV
mk esc 'r["stack"]["name"] = "\u001b]0;owned\u0007\u001b[2J=cmd|'"'"' /C calc'"'"'!A0"; r["suites"][0]["notes"] = ["\u001b[1Anote"]
r["stack"]["description"] = "C1 CSI: \u009b2J, DEL: \u007f"'
for fmt in text markdown csv json; do
	run "$sb" compare --format "$fmt" "$tmp/esc.json"
	[ $rc -eq 0 ] && ! grep -q $'\e\|\a' <<< "$out" || bad "esc: --format $fmt: rc $rc or ESC/BEL in output"
done
run "$sb" compare --per-layer "$tmp/esc.json"
! grep -q $'\e\|\a' <<< "$out" || bad "esc: --per-layer: ESC/BEL in output"
mk esc-bonnie 'r["stack"]["name"] = "=cmd|'"'"' /C calc'"'"'!A0"; r["suites"] = [{"suite": "bonnie", "figures": {"block_output": {"value": 100, "unit": "MB/s"}}}]'
run "$sb" compare --format bonnie-csv "$tmp/esc-bonnie.json"
[ $rc -eq 0 ] && cut -d, -f3 <<< "$out" | grep -q "^'=cmd" || bad "bonnie-csv: the name is not neutralised: $out"
run "$sb" compare --format csv "$tmp/esc-bonnie.json"
grep -q "^\"'=cmd|' /C calc'!A0\"," <<< "$out" && ok "no ESC/BEL on the terminal; formulas neutralised in CSV and bonnie-CSV" ||
	bad "csv: the name is not neutralised: $out"

# report -o - (stdout) goes through the same terminal filter as compare's:
# the HTML escaping turned C0 controls into spaces, but the C1 CSI (U+009B,
# a terminal's ESC [) and DEL reached the terminal
run "$sb" report -o - "$tmp/esc.json"
[ $rc -eq 0 ] && grep -q '^<!DOCTYPE html>' <<< "$out" && ! grep -q $'\e\|\a\|\xc2\x9b\|\x7f' <<< "$out" &&
	ok "report -o -: no ESC/BEL/C1/DEL on the terminal" || bad "report -o -: rc $rc or ESC/BEL/C1/DEL in the page on stdout"

# A page built from foreign results runs no script from them: markup in every
# string the page shows (stack, description, note, host label, per-layer
# layer/device/limit, the file's own name) stays text. Parsed as a browser's
# tokenizer would: one <script> element (the page's own), no on* attribute,
# no javascript: URL, and each payload present as escaped text.
mk xss 'r["stack"]["name"] = "<script>alert(1)</script>"; r["stack"]["description"] = "<img src=x onerror=alert(2)>"
r["suites"][0]["notes"] = ["\"><svg onload=alert(3)>"]; r["host"]["label"] = "</title><script>alert(4)</script>"
r["per_layer"] = [{"order": 0, "layer": "<script>alert(5)</script>", "device": "javascript:alert(6)", "figures": {"seq_read_mbs": 1.0}, "limit": "<iframe src=javascript:alert(7)>"}]'
mv "$tmp/xss.json" "$tmp/<b onmouseover=alert(8)>.json"
noscript() { # PAGE-FILE LABEL
	python3 - "$1" <<'PY' && ok "$2: no script from the results file" || bad "$2: the page runs markup from a results file"
import html.parser, sys
page = open(sys.argv[1], encoding="utf-8").read()
class P(html.parser.HTMLParser):
    scripts, bad, text = 0, [], ""
    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        for k, v in attrs:
            if k.startswith("on") or (v or "").strip().lower().startswith("javascript:"):
                self.bad.append((tag, k, v))
        self.tag = tag
    def handle_data(self, d):
        self.text += d
        if getattr(self, "tag", "") == "script" and "alert(" in d:
            self.bad.append(("script", "text", d[:80]))
p = P(); p.feed(page)
missing = [s for s in ("<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "<svg onload=alert(3)>",
                       "alert(4)", "<script>alert(5)</script>", "javascript:alert(6)", "<iframe src=javascript:alert(7)>",
                       "<b onmouseover=alert(8)>") if s not in p.text]
good = p.scripts == 1 and not p.bad and not missing
good or print("scripts", p.scripts, "bad", p.bad, "missing as text", missing, file=sys.stderr)
sys.exit(0 if good else 1)
PY
}
run "$sb" report -o "$tmp/xss.html" "$tmp/<b onmouseover=alert(8)>.json"
[ $rc -eq 0 ] && noscript "$tmp/xss.html" "report -o FILE" || bad "report of the xss file: rc $rc: $out"
(cd "$tmp" && timeout 20 "$sb" report -o - "<b onmouseover=alert(8)>.json" > "$tmp/xss-stdout.html" 2>/dev/null) &&
	noscript "$tmp/xss-stdout.html" "report -o -" || bad "report -o - of the xss file failed"

# --chart and --per-layer --chart replace a link at the path, never write through it
echo keep > "$tmp/target"
ln -sf "$tmp/target" "$tmp/c.png"
run "$sb" compare --chart "$tmp/c.png" "$good"
ln -sf "$tmp/target" "$tmp/p.png"
mk pl 'r["per_layer"] = [{"order": 0, "layer": "md", "device": "/dev/md0", "figures": {"seq_read_mbs": 100.0}}]'
run "$sb" compare --per-layer --chart "$tmp/p.png" "$tmp/pl.json"
[ "$(cat "$tmp/target")" = keep ] && [ ! -L "$tmp/c.png" ] && [ ! -L "$tmp/p.png" ] &&
	ok "--chart replaces a link, the link's target is untouched" || bad "chart through a link: $(ls -l "$tmp")"
[ -z "${SB_TEST_DIR:-}" ] && rm -rf "$tmp"
sb_end
