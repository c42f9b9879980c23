#!/bin/bash
# issue 23: a shipped stack whose export needs a daemon this machine lacks
# says so before it builds anything - not after the loop devices, array,
# LUKS and filesystem below it were built. With a PATH that has every
# program of this machine but smbd, build-and-test stacks/export-luks.yml
# fails at once naming smbd and `apt-get install samba`, builds no layer and
# leaves nothing; plan says the same; with the machine's own PATH (where
# scripts/install-deps.sh installed samba) plan says nothing is missing.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test export-programs --root --shm
stack=$src/stacks/export-luks.yml

# every program of the machine's PATH, linked, but smbd
mkdir "$TMP/bin"
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	# the first of a name wins, as in a PATH lookup (ln refuses the others)
	[ -d "$d" ] && [ ! -L "$d" ] && ln -s "$d"/* "$TMP/bin/" 2>/dev/null
done
rm -f "$TMP/bin/smbd"
[ -e "$TMP/bin/ls" ] || fail "no PATH made in $TMP/bin"
want="stack export-luks needs smbd, which this machine lacks (apt-get install samba)"

t0=$(date +%s)
PATH=$TMP/bin "$sb" build-and-test "$stack" > "$TMP/out" 2>&1
rc=$?
secs=$(( $(date +%s) - t0 ))
[ $rc = 1 ] && ok "build-and-test without smbd: exit 1" || fail "build-and-test without smbd: exit $rc, not 1"
grep -qF "$want" "$TMP/out" && ok "it names smbd and the package" ||
	fail "no '$want' in: $(tail -5 "$TMP/out")"
grep -q "building layer\|throwaway kernel" "$TMP/out" && fail "it built or booted before refusing: $(cat "$TMP/out")" ||
	ok "nothing built, no throwaway kernel booted"
[ $secs -le 10 ] && ok "refused in ${secs}s" || fail "took ${secs}s to refuse"

PATH=$TMP/bin "$sb" plan "$stack" > "$TMP/plan" 2>&1 || fail "plan without smbd failed: $(tail -3 "$TMP/plan")"
grep -qF "missing: $want" "$TMP/plan" && ok "plan says it" || fail "plan does not say '$want': $(tail -3 "$TMP/plan")"

"$sb" plan "$stack" > "$TMP/plan2" 2>&1 || fail "plan failed: $(tail -3 "$TMP/plan2")"
grep -q "^missing:" "$TMP/plan2" && fail "with this machine's PATH: $(grep '^missing:' "$TMP/plan2") (scripts/install-deps.sh installs them)" ||
	ok "with this machine's PATH nothing is missing"
sb_end
