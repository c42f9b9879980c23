#!/bin/bash
# Packaging, the parts that need no package build (issue 11, item 4): the
# bash completion loads (`complete -p stackbench`) and completes commands,
# options, `--set luks.` to exactly the luks keys of the option tables and
# --columns to the column registry; the man page generated at build time
# is the binary's own (`--help-man`), renders with `man -l` without
# warnings and names every command, key and exit code; `meson install`
# puts binary, man page, completion, stacks, schema doc and init script
# where Debian expects them; --version carries the git description.
set -u
. "$(dirname "$0")/../lib.sh"
sb_test pkg --scratch
build=$(dirname "$sb")
comp=$src/completion/stackbench

# --- completion ------------------------------------------------------------
out=$(bash -c "source '$comp'; complete -p stackbench" 2>&1)
[ "$out" = "complete -F _stackbench stackbench" ] && ok "complete -p stackbench" || bad "complete -p: $out"
complete_words() {   # complete_words WORD... : what completing the last word offers
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _stackbench
		printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@"
}
got=$(complete_words "$sb" validate --set luks. | sort)
want=$("$sb" validate --keys | awk '/^  luks\./ { print $1 "=" }' | sort)
[ -n "$want" ] && [ "$got" = "$want" ] && ok "--set luks. completes to the $(echo "$want" | wc -l) luks keys" ||
	bad "--set luks.: got [$got], want [$want]"
got=$(complete_words "$sb" bu | tr '\n' ' ')
[ "$got" = "build build-and-test " ] && ok "commands" || bad "commands: $got"
got=$(complete_words "$sb" build-and-test --re | tr '\n' ' ')
[ "$got" = "--repeat --report --results " ] && ok "command options" || bad "build-and-test --re: $got"
got=$(complete_words "$sb" compare --columns write,crypto | tr '\n' ' ')
[ "$got" = "write,crypto_driver " ] && ok "--columns from the registry" || bad "--columns: $got"
# --format and --suite offer what the binary's own messages list (its tables)
got=$(complete_words "$sb" compare --format "" | tr '\n' ' ')
want="$("$sb" compare --format nosuch x 2>&1 | sed -n 's/.*(\(.*\))$/\1/p' | tr -d ',') "
[ "$want" != " " ] && [ "$got" = "$want" ] && ok "--format from the format table" || bad "--format: got [$got], want [$want]"
got=$(complete_words "$sb" bench --suite "" | tr '\n' ' ')
want="$("$sb" bench --suite nosuch --target /tmp 2>&1 | sed -n 's/.*(known: \(.*\)).*/\1/p' | tr -d ',') "
[ "$want" != " " ] && [ "$got" = "$want" ] && ok "--suite from the suite registry" || bad "--suite: got [$got], want [$want]"
got=$(cd "$src" && complete_words "$sb" plan stacks/luks40 | LC_ALL=C sort | tr "\n" " ")
[ "$got" = "stacks/luks4096-cesa.yml stacks/luks4096.yml " ] && ok "stack files" || bad "stack files: $got"

# --- man page ----------------------------------------------------------------
[ -f "$build/stackbench.1" ] || bad "no $build/stackbench.1 (meson builds it)"
"$sb" --help-man | cmp -s - "$build/stackbench.1" && ok "the built page is --help-man's" ||
	bad "$build/stackbench.1 differs from --help-man"
MANWIDTH=80 man -l "$build/stackbench.1" > "$tmp/man.txt" 2> "$tmp/man.err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/man.err" ] && ok "man -l renders, no warnings" || bad "man -l: $rc $(cat "$tmp/man.err")"
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$build/stackbench.1" 2>&1 >/dev/null | grep . && bad "groff warnings"
for c in validate plan build bench teardown build-and-test compare status job; do
	grep -q "^   $c\$" "$tmp/man.txt" || bad "man page lacks the command $c"
done
for k in devices.loop.size luks.sector_size bench.suites faults.fail.after; do
	grep -q -- "$k" "$tmp/man.txt" || bad "man page lacks the key $k"
done
grep -q "crypto_driver" "$tmp/man.txt" && grep -q "^       130" "$tmp/man.txt" && ok "man page: commands, keys, columns, exit codes" ||
	bad "man page lacks columns or exit codes"

# --- version -------------------------------------------------------------------
v=$("$sb" --version)
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	# the build's own description (the binary may predate the last commit)
	d=$(sed -n 's/^stackbench [^ ]* (git \(.*\))$/\1/p' <<< "$v")
	h=$(sed -E 's/-dirty$//; s/.*-g([0-9a-f]+)$/\1/' <<< "$d")
	[ -n "$d" ] && git -C "$src" cat-file -e "$h^{commit}" 2>/dev/null && ok "--version: $v" ||
		bad "--version '$v' has no git description of this tree"
fi

# --- meson install ---------------------------------------------------------------
DESTDIR=$tmp/root meson install -C "$build" --no-rebuild --quiet > "$tmp/install.log" 2>&1 ||
	bad "meson install: $(tail -5 "$tmp/install.log")"
prefix=$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
r=$tmp/root$prefix
for f in bin/stackbench share/man/man1/stackbench.1 share/bash-completion/completions/stackbench \
	 share/stackbench/stacks/luks4096-cesa.yml share/stackbench/stacks/matrix-luks.yml \
	 share/doc/stackbench/results-schema.md libexec/stackbench/uml-init.sh; do
	[ -e "$r/$f" ] && ok "installed $f" || bad "meson install lacks $prefix/$f"
done
sb_end
