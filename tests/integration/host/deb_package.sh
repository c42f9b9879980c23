#!/bin/bash
# The Debian package (issue 11, item 4): `dpkg-buildpackage -us -uc -b` in
# a copy of the tree (under TMPDIR, so the worktree is never touched) builds
# a .deb; it is installed into a scratch root with `dpkg -x` (the shared
# machine's /usr stays as it is), and there: the binary, man page,
# completion, stacks, schema doc and init script are where Debian expects
# them, `stackbench validate` of every shipped stack is clean (exit 0,
# nothing on stderr), `man -l` renders the page and --version works.
# The unit suite is not run again inside the build (DEB_BUILD_OPTIONS=nocheck;
# meson test runs it anyway). Takes 1-3 minutes.
set -u
. "$(dirname "$0")/../lib.sh"
sb_test deb --scratch
for t in dpkg-buildpackage dh dpkg-deb; do
	command -v "$t" >/dev/null || sb_skip "$t not installed (scripts/install-deps.sh)"
done

# --- a copy of the tree: tracked and new files, no build directories ---------
tree=$tmp/stackbench-0.1.0
mkdir -p "$tree"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z -co --exclude-standard | xargs -0 cp -a --parents -t "$tree") ||
		{ echo "FAIL: cannot copy the tree"; exit 1; }
else
	(cd "$src" && tar --exclude='./build*' --exclude=./results -cf - .) | tar -C "$tree" -xf -
fi

# --- build ------------------------------------------------------------------------
t0=$(date +%s)
(cd "$tree" && DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b) > "$tmp/build.log" 2>&1; rc=$?
if [ $rc -ne 0 ]; then
	bad "dpkg-buildpackage exited $rc:"; tail -30 "$tmp/build.log"; exit 1
fi
deb=$(ls "$tmp"/stackbench_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] && ok "built $(basename "$deb") in $(( $(date +%s) - t0 )) s" || { bad "no .deb in $tmp"; exit 1; }
dpkg-deb -f "$deb" Depends | grep -q mdadm && ok "Depends lists the tools it drives" ||
	bad "Depends: $(dpkg-deb -f "$deb" Depends)"

# --- install into a scratch root ---------------------------------------------------
root=$tmp/root
dpkg -x "$deb" "$root" || { bad "dpkg -x failed"; exit 1; }
for f in usr/bin/stackbench usr/share/man/man1/stackbench.1.gz \
	 usr/share/bash-completion/completions/stackbench usr/share/stackbench/stacks/luks4096-cesa.yml \
	 usr/share/stackbench/ansible/fleet.yml usr/share/stackbench/ansible/roles/stackbench/tasks/main.yml \
	 usr/share/doc/stackbench/copyright; do
	[ -e "$root/$f" ] && ok "/$f" || bad "the package lacks /$f"
done
ls "$root"/usr/share/doc/stackbench/results-schema.md* >/dev/null 2>&1 && ok "schema doc" || bad "no schema doc"
init=$(cd "$root" && find usr -name uml-init.sh -perm -u+x | head -1)
[ -n "$init" ] && ok "init script /$init" || bad "no executable uml-init.sh in the package"
sb=$root/usr/bin/stackbench
"$sb" validate "$root"/usr/share/stackbench/stacks/*.yml > "$tmp/v.out" 2> "$tmp/v.err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/v.err" ] && ok "validate of the $(ls "$root"/usr/share/stackbench/stacks/*.yml | wc -l) shipped stacks: clean" ||
	bad "validate of the shipped stacks: exit $rc: $(cat "$tmp/v.err")"
MANWIDTH=80 man -l "$root/usr/share/man/man1/stackbench.1.gz" > "$tmp/man.txt" 2>&1 &&
	grep -q "^EXIT STATUS" "$tmp/man.txt" && ok "man -l renders the packaged page" || bad "man -l: $(head -5 "$tmp/man.txt")"
[ "$("$sb" --version)" = "stackbench 0.1.0" ] && ok "--version: $("$sb" --version)" || bad "--version: $("$sb" --version)"
bash -c "source '$root/usr/share/bash-completion/completions/stackbench'; complete -p stackbench" >/dev/null &&
	ok "packaged completion loads" || bad "packaged completion does not load"
sb_end
