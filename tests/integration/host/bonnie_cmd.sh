#!/bin/bash
# stackbench bonnie takes bonnie++ 2.00a's command line (the Helios4 one,
# with smaller sizes) and prints its two tables and its CSV line, with every
# field bonnie++ fills; bonnie++'s own bon_csv2txt reads the line and shows
# the size. Refusals exit 2. Needs root (the -u rule) and bon_csv2txt.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test bonnie-cmd --root --shm
command -v bon_csv2txt >/dev/null || { fail "needs Debian's bonnie++ (bon_csv2txt)"; exit 1; }
mkdir "$TMP/d"

"$SB" bonnie -d "$TMP/d" -s 48 -r 24 -n 1 -c 1 -f -b -u root -q >"$TMP/csv" 2>"$TMP/tables" ||
	{ fail "bonnie failed: $(cat "$TMP/tables")"; exit; }
[ "$(wc -l <"$TMP/csv")" = 1 ] || fail "-q: stdout is not the CSV line alone: $(cat "$TMP/csv")"
python3 - "$TMP/csv" <<'PY' || fail "CSV line"
import sys
f = open(sys.argv[1]).read().rstrip("\n").split(",")
assert len(f) == 50, f"{len(f)} fields"
want = {0: "1.98", 3: "1", 5: "48M", 7: "8192", 8: "5", 21: "1"}
for i, v in want.items():
    assert f[i] == v, f"field {i}: {f[i]!r}, bonnie++ writes {v!r}"
assert f[4].isdigit(), f"seed {f[4]!r}"
# the figures bonnie++ fills with -f: block output, rewrite, block input, seeks (value, %CPU),
# the six file tests (value, %CPU) and all the latencies but the per-char ones
for i in [11, 12, 13, 14, 17, 18, 19, 20] + list(range(26, 38)) + [39, 40, 42, 43] + list(range(44, 50)):
    assert f[i] != "", f"field {i} empty"
for i in (9, 10, 15, 16, 38, 41):
    assert f[i] == "", f"per-char field {i} should be empty with -f: {f[i]!r}"
# a test under half a second is "+++++" with "+++" for its %CPU, as bonnie++ prints it
for i in [11, 13, 17, 19] + list(range(26, 38, 2)):
    assert (f[i], f[i + 1]) == ("+++++", "+++") or float(f[i]) > 0, f"field {i}: {f[i]!r},{f[i + 1]!r}"
assert f[38 + 1].endswith(("us", "ms", "s"))
PY
grep -q "^Version .*------Sequential Output------ --Sequential Input- --Random-$" "$TMP/tables" ||
	fail "no bonnie++ I/O table on stderr: $(cat "$TMP/tables")"
grep -Eq "^ +1 +([0-9]+ +[0-9]+|[+]{5} [+]{3}) " "$TMP/tables" || fail "no file-test row: $(cat "$TMP/tables")"
[ "$(grep -c '^Latency' "$TMP/tables")" = 2 ] || fail "not two Latency rows"
bon_csv2txt <"$TMP/csv" >"$TMP/txt" 2>&1 || fail "bon_csv2txt failed: $(cat "$TMP/txt")"
grep -q " 48M" "$TMP/txt" || fail "bon_csv2txt shows no size: $(cat "$TMP/txt")"
[ -z "$(ls -A "$TMP/d")" ] || fail "files left: $(ls "$TMP/d")"

# without -q: tables then the CSV line, all on stdout
"$SB" bonnie -d "$TMP/d" -s 16 -r 8 -n 0 -f -u root >"$TMP/out" 2>/dev/null || fail "bonnie -n 0 failed"
grep -q "^1.98," "$TMP/out" && grep -q "^Latency" "$TMP/out" || fail "no tables + CSV on stdout"
grep -q "Sequential Create" "$TMP/out" && fail "-n 0 still printed the file table"

# the same command line under bonnie++ 2.00a and stackbench bonnie: the same
# CSV fields filled, the parameter fields (sizes, seeks, files, max, min,
# directories) equal - -s 0, -n NUMBER:MAX:MIN:DIRS:CHUNK, links, -n 0
same_fields() { # args...
	local b s
	b=$(cd "$TMP" && bonnie++ -d "$TMP/d" -u root -q "$@" 2>"$TMP/berr") ||
		{ fail "bonnie++ $*: $(cat "$TMP/berr")"; return; }
	s=$("$SB" bonnie -d "$TMP/d" -u root -q "$@" 2>"$TMP/serr") ||
		{ fail "stackbench bonnie $*: $(cat "$TMP/serr")"; return; }
	python3 - "$b" "$s" "$*" <<'PY' || fail "bonnie $*: CSV fields differ from bonnie++'s"
import sys
b, s, args = sys.argv[1].split(","), sys.argv[2].split(","), sys.argv[3]
assert len(b) == len(s) == 50, f"{len(b)} / {len(s)} fields"
bad = [i for i in range(50) if (b[i] == "") != (s[i] == "")]
bad += [i for i in [0, 3, 5, 6, 7, 8] + list(range(21, 26)) if b[i] != s[i]]
if bad:
    for i in sorted(set(bad)):
        print(f"{args}: field {i}: bonnie++ {b[i]!r}, stackbench {s[i]!r}", file=sys.stderr)
    sys.exit(1)
PY
	[ -z "$(ls -A "$TMP/d")" ] || fail "bonnie $*: files left: $(ls "$TMP/d")"
}
same_fields -s 0 -n 1:4096:1024:4
same_fields -s 0 -n 1:4k:1k:4:4k -b
same_fields -s 0 -n 1:-2
same_fields -s 0 -n 1:-1:0:3 -b
same_fields -s 0 -n 1:2000
same_fields -s 16:4096:100:2 -r 8 -n 0 -f
same_fields -s 16 -r 8 -n 1:0:0:3 -f

expect2() { # want args...
	local want=$1 out rc; shift
	out=$("$SB" bonnie "$@" 2>&1); rc=$?
	[ $rc = 2 ] || fail "bonnie $*: exit $rc, expected 2 ($out)"
	echo "$out" | grep -qF -- "$want" || fail "bonnie $*: '$out' lacks '$want'"
}
expect2 'must use the "-u" switch' -d "$TMP/d" -s 16 -r 8
expect2 "not supported by stackbench bonnie: -x" -d "$TMP/d" -s 16 -x 2 -u root
expect2 "not supported by stackbench bonnie: -c above 1" -d "$TMP/d" -s 16 -c 4 -u root
expect2 "double RAM" -d "$TMP/d" -s 16 -r 16 -u root
expect2 "-d DIR is required" -s 16 -u root
expect2 "not supported by stackbench bonnie: -z" -d "$TMP/d" -s 16 -z 7 -u root
expect2 "not supported by stackbench bonnie: -D" -d "$TMP/d" -s 16 -D -u root
expect2 "not supported by stackbench bonnie: -f SIZE" -d "$TMP/d" -s 16 -f3 -u root
expect2 "no test left" -d "$TMP/d" -s 0 -n 0 -u root

sb_end
