#!/bin/bash
# The command line the way people type it (issue 11, item 1): options
# anywhere among the operands for every command, `--` ends options, a
# missing value says "--X needs a value", no abbreviations, an unknown
# global option is one line, and one exit code per kind of failure: a
# missing or unreadable input file (stack or results) is 2 for every
# command; a truncated results file names the file and says so.
# Touches nothing (no root needed): only validate/plan/compare run fully.
set -u
. "$(dirname "$0")/../lib.sh"
sb_test args --scratch

# expect CODE REGEX CMD...: exit status CODE and stderr matching REGEX
expect() {
	local code=$1 re=$2 rc
	shift 2
	"$sb" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
	if [ "$rc" -eq "$code" ] && grep -q -E -- "$re" "$tmp/err"; then
		ok "$* -> $rc"
	else
		bad "$*: exit $rc (want $code), stderr: $(cat "$tmp/err") (want /$re/)"
	fi
}

# --- options after operands --------------------------------------------
"$sb" compare "$src"/docs/helios4-results/*.json --format markdown >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^| Setup | LUKS sector size' "$tmp/out" && ok "compare FILES --format markdown" ||
	bad "compare FILES --format markdown: $(cat "$tmp/err")"
"$sb" validate "$src/stacks/ext4.yml" --set raid.level=10 --set raid.devices=4 --set devices.loop.count=4 \
	>"$tmp/out" 2>"$tmp/err" && grep -q 'RAID10 near2 ×4' "$tmp/out" && ok "validate FILE --set ..." ||
	bad "validate FILE --set: $(cat "$tmp/err") $(cat "$tmp/out")"
"$sb" plan "$src/stacks/ext4.yml" --set devices.loop.size=512MiB >"$tmp/out" 2>"$tmp/err" &&
	grep -q 'loop' "$tmp/out" && grep -Eq '2 (sparse|preallocated) files of 512 MiB' "$tmp/out" && ok "plan FILE --set ..." ||
	bad "plan FILE --set: $(cat "$tmp/err")"
# build FILE --set KEY=BAD: the --set is read (a validation error naming it), not "exactly one file"
expect 2 'raid.level' build "$src/stacks/ext4.yml" --set raid.level=7
expect 2 'raid.level' build-and-test "$src/stacks/ext4.yml" --set raid.level=7
expect 2 'raid.level' bench "$src/stacks/ext4.yml" --set raid.level=7
expect 2 'raid.level' validate "$src/stacks/ext4.yml" --set raid.level=7

# --- `--`, missing values, no abbreviations, unknown options -------------
expect 2 '^stackbench: --keys:1:1: cannot open the stack file' validate -- --keys
expect 2 '^stackbench: validate: --set needs a value; see `stackbench help validate`$' validate "$src/stacks/ext4.yml" --set
expect 2 '^stackbench: plan: --set needs a value' plan --set --keys "$src/stacks/ext4.yml"
expect 2 "^stackbench: compare: unknown option '--form'" compare --form text "$src/docs/helios4-results"
expect 2 "^stackbench: bench: unknown option '--output'" bench --output x.json --suite quick --target /tmp
expect 2 '^stackbench: teardown: --all takes no value' teardown --all=yes
expect 2 '^stackbench: status: takes no arguments' status extra
n=$("$sb" --frob status 2>&1 | wc -l)
expect 2 "^stackbench: unknown option '--frob'; see \`stackbench --help\`$" --frob status
[ "$n" -eq 1 ] && ok "unknown global option: one line" || bad "unknown global option: $n lines"
expect 2 "unknown command 'frob'" frob

# --- a missing input file is 2 everywhere ---------------------------------
for c in validate plan build build-and-test bench; do
	expect 2 "/nonexistent/x.yml:1:1: cannot open the stack file" $c /nonexistent/x.yml
done
expect 2 "/nonexistent/x.json: cannot read" compare /nonexistent/x.json
expect 2 "bench: --target /nonexistent/dir: No such file or directory" bench --suite quick --target /nonexistent/dir
mkdir -p "$tmp/unreadable"
cp "$src/docs/helios4-results/ext4-"*.json "$tmp/r.json"
head -c 300 "$tmp/r.json" > "$tmp/trunc.json"
expect 2 "^stackbench: $tmp/trunc.json: truncated results file: the JSON ends after 300 bytes" compare "$tmp/trunc.json"
printf '{"a": 1,]' > "$tmp/bad.json"
expect 2 "^stackbench: $tmp/bad.json: not a valid JSON results file" compare "$tmp/bad.json"
grep -q json_tokener "$tmp/err" && bad "json-c's internals in the message"

# --- the exit table, once, in --help --------------------------------------
"$sb" --help | grep -q '^  2    bad usage, a bad stack description or a missing/unreadable/invalid input file$' &&
	ok "--help has the exit table" || bad "--help lacks the exit table: $("$sb" --help | tail -12)"
sb_end
