#!/bin/bash
# The test library itself (lib.sh's sb_test, tests/tools/sbresults.py): small
# scripts written here run under sb_test and end as the contract says - a
# failed check exits 1 however the script ends, a script that stops before
# sb_end fails, sb_skip exits 77, --tap numbers the checks and prints the
# plan; --scratch's dir is private (its own state dir; --shm's in /dev/shm) and at exit a mount
# and a loop device left in it are undone and the dir removed; the
# test's own sb_cleanup_hook runs first. sbresults.py get/len/figure name
# a missing key and exit 1. Needs root (a loop device); 25-37 s at a load of 28.
set -u
. "$(dirname "$0")/../lib.sh"
sb_test testlib --root --scratch

# run NAME BODY: a script sourcing lib.sh with BODY after its preamble;
# its output in $TMP/NAME.out, its status in rc
run() {
	cat >"$TMP/$1.sh" <<EOF
#!/bin/bash
set -u
. "$SB_ROOT/tests/integration/lib.sh"
$2
EOF
	chmod +x "$TMP/$1.sh"
	SB_TEST_DIR=$TMP/dirs "$TMP/$1.sh" >"$TMP/$1.out" 2>&1
	rc=$?
}
mkdir "$TMP/dirs"
# want NAME RC TEXT: exit RC and TEXT in its output
want() {
	if [ "$rc" = "$2" ] && grep -qF -- "$3" "$TMP/$1.out"; then ok "$1: exit $rc, '$3'"
	else bad "$1: exit $rc (want $2), output (want '$3'): $(cat "$TMP/$1.out")"; fi
}

run pass 'sb_test pass; ok one; ok two; sb_end'
want pass 0 "PASS: pass (2 checks passed)"
run failed 'sb_test failed; ok one; fail two; ok three; sb_end'
want failed 1 "FAIL: failed: 1 failed, 2 passed"
run failexit0 'sb_test failexit0; bad "no device"; exit 0'
want failexit0 1 "FAIL: no device"
run stopped 'sb_test stopped; ok one; exit'
want stopped 1 "stopped before its end"
run early 'sb_test early; exit 3'
want early 3 "FAIL: early: exit 3"
run skip 'sb_test skip; sb_skip "no such tool"; sb_end'
want skip 77 "SKIP: no such tool"
run tap 'sb_test tap --tap; ok a; bad b; ok c; sb_end'
want tap 1 "not ok 2 - b"
grep -qx "ok 3 - c" "$TMP/tap.out" && grep -qx "1..3" "$TMP/tap.out" && ok "tap: numbered, with the plan" ||
	bad "tap: $(cat "$TMP/tap.out")"

# --scratch: a private dir and state dir; what the script leaves in it is
# undone after its own hook ran, and the dir removed
run scratch 'sb_test scratch --scratch
echo "dir $TMP state $STACKBENCH_STATE_DIR"
sb_cleanup_hook() { echo "hook ran; $TMP still there: $(test -d "$TMP" && echo yes)"; }
truncate -s 16M "$TMP/img"
dev=$(losetup -f --show "$TMP/img") || { fail losetup; exit 1; }
mkfs.ext4 -q "$dev" && mkdir "$TMP/mnt" && mount "$dev" "$TMP/mnt" || fail "mkfs/mount"
echo "loop $dev"
ok "left a mount and a loop device"
sb_end'
want scratch 0 "hook ran; $TMP/dirs/sb-scratch."
grep -q "still there: yes" "$TMP/scratch.out" || bad "the hook ran after the scratch dir was removed"
dir=$(sed -n 's/^dir \([^ ]*\) state .*/\1/p' "$TMP/scratch.out")
state=$(sed -n 's/^dir [^ ]* state \(.*\)/\1/p' "$TMP/scratch.out")
[ "$state" = "$dir/state" ] && [[ "$dir" == "$TMP/dirs/sb-scratch."* ]] && ok "scratch: a private dir under SB_TEST_DIR, its own state dir" ||
	bad "scratch: dir '$dir', state '$state'"
[ -n "$dir" ] && [ ! -e "$dir" ] && ok "scratch: removed at exit" || bad "scratch: $dir left"
[ -z "$(findmnt -rn -o TARGET | grep -F "$TMP/dirs/")" ] && ok "scratch: the mount undone" || bad "scratch: mount left"
[ -z "$(sb_loop_leaks "$TMP/dirs/")" ] && ok "scratch: the loop device detached" || bad "scratch: loop device left"
run shm 'sb_test shm --shm; echo "dir $TMP"; ok "made"; sb_end'
want shm 0 "dir /dev/shm/sb-shm."
dir=$(sed -n 's/^dir //p' "$TMP/shm.out")
[ -n "$dir" ] && [ ! -e "$dir" ] && ok "shm: removed at exit" || bad "shm: $dir left"

# sbresults.py: values by path, a missing key named
printf '{"suites": [{"suite": "dd", "figures": {"write": {"value": 12.5}}}], "jobs": [{"job options": {"rw": "read"}}]}' \
	>"$TMP/r.json"
[ "$(sb_results figure "$TMP/r.json" dd write)" = 12.5 ] && ok "sbresults figure" || bad "sbresults figure"
[ "$(sb_results get "$TMP/r.json" 'jobs[0]["job options"].rw')" = read ] && ok "sbresults get, a quoted key" ||
	bad "sbresults get: $(sb_results get "$TMP/r.json" 'jobs[0]["job options"].rw' 2>&1)"
[ "$(sb_results len "$TMP/r.json" 'suites')" = 1 ] && ok "sbresults len" || bad "sbresults len"
out=$(sb_results get "$TMP/r.json" 'suites[1].figures' 2>&1); rc=$?
[ $rc = 1 ] && grep -qF "no 1 in suites" <<<"$out" && ok "sbresults get: a missing index named, exit 1" ||
	bad "sbresults get suites[1]: exit $rc: $out"
out=$(sb_results figure "$TMP/r.json" dd read 2>&1); rc=$?
[ $rc = 1 ] && grep -qF "suite dd has no figure 'read'" <<<"$out" && ok "sbresults figure: a missing figure named, exit 1" ||
	bad "sbresults figure dd read: exit $rc: $out"
sb_end
