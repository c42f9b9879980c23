#!/bin/bash
# Provisioner on loop devices, no md/dm needed: tests/stacks/plain.yml
# (one loop, 4096-byte sectors -> ext4 4 KiB -> mount) is built, written,
# read back after dropping caches, checked (sector size, ext4 block size),
# torn down; then a build killed with SIGKILL (after the loop, after the
# mount) is cleaned by `teardown --all`; a SIGINT mid-build rolls back; a
# failing layer rolls back; leftovers block a rebuild; non-root gets exit 3.
# Every stack lives in a private state dir and work dir, so parallel runs of
# other tests never see it. Needs root.
#   tests/integration/host/prov_plain.sh        (SB_BUILD_DIR=build by default)
set -u
. "$(dirname "$0")/../lib.sh"
sb_test prov --root --scratch
stack=$src/tests/stacks/plain.yml
for t in dumpe2fs blockdev sha256sum findmnt; do
	command -v "$t" >/dev/null || sb_skip "$t not installed"
done

work=$tmp/work
sets=(--set "devices.loop.dir=$work")
bgpid=

# What this script's stacks could have left: loop devices backed by files
# under $tmp, mounts under $tmp, backing files, state files.
leaks() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] && grep -q -F "$tmp" "$f" 2>/dev/null &&
			echo "leaked loop: ${f#/sys/block/} -> $(cat "$f")"
	done
	findmnt -rn -o TARGET | grep -F "$tmp" | sed 's/^/leaked mount: /'
	find "$work" -type f 2>/dev/null | sed 's/^/leaked file: /'
	find "$STACKBENCH_STATE_DIR" -name '*.state' 2>/dev/null | sed 's/^/leaked state: /'
}

# at exit, before sb_test's own teardown, unmount and detach: what a
# teardown --all leaves is a failure here
sb_cleanup_hook() {
	local left
	[ -n "$bgpid" ] && kill -9 "$bgpid" 2>/dev/null
	"$sb" -q teardown --all >/dev/null 2>&1
	left=$(leaks)
	[ -z "$left" ] || { sb_fail "leaked after the tests:"; echo "$left"; }
}

expect_clean() {
	local left
	# loop detach is confirmed by stackbench itself; no grace period here
	left=$(leaks)
	if [ -z "$left" ]; then ok "$1: nothing left"; else bad "$1: left behind:"; echo "$left"; fi
}

# --- 1. build, use, verify, tear down -----------------------------------
out=$("$sb" build "${sets[@]}" "$stack" 2>"$tmp/err"); rc=$?
if [ $rc -ne 0 ]; then bad "build exited $rc: $(cat "$tmp/err")"; exit 1; fi
ok "build"
mnt=$STACKBENCH_STATE_DIR/mnt/plain
loopdev=$(echo "$out" | awk '$1 == "loop" { print $2 }')
findmnt -n "$mnt" >/dev/null && ok "mounted on $mnt" || bad "$mnt is not mounted"
[ -f "$STACKBENCH_STATE_DIR/plain.state" ] && ok "state file written" || bad "no state file"
[ "$(blockdev --getss "$loopdev")" = 4096 ] && ok "$loopdev has 4096-byte sectors" ||
	bad "$loopdev sector size $(blockdev --getss "$loopdev"), not 4096"
grep -q -F "$work/plain/d0" "/sys/block/${loopdev#/dev/}/loop/backing_file" && ok "backing file in the work dir" ||
	bad "backing file of $loopdev: $(cat "/sys/block/${loopdev#/dev/}/loop/backing_file")"
bs=$(dumpe2fs -h "$loopdev" 2>/dev/null | awk -F: '/^Block size/ { gsub(/ /, "", $2); print $2 }')
[ "$bs" = 4096 ] && ok "ext4 block size 4096" || bad "ext4 block size '$bs'"
if [ -e /run/udev/control ]; then
	# build settles udev after mkfs: its blkid probe must be done already
	uuid=$(dumpe2fs -h "$loopdev" 2>/dev/null | awk '/^Filesystem UUID/ { print $3 }')
	[ -L "/dev/disk/by-uuid/$uuid" ] && ok "udev had probed the new filesystem (/dev/disk/by-uuid/$uuid)" ||
		bad "no /dev/disk/by-uuid/$uuid after build: udev not settled"
fi
head -c 16M /dev/urandom > "$tmp/random"
cp "$tmp/random" "$mnt/random" && sync
echo 3 > /proc/sys/vm/drop_caches
if cmp -s "$tmp/random" "$mnt/random"; then ok "16 MiB random file read back identical after drop_caches"
else bad "file read back differs"; fi
st=$("$sb" status)
echo "$st" | grep -q "^plain " && echo "$st" | grep -q "loopdev  $loopdev .*present" && ok "status lists the stack and $loopdev" ||
	{ bad "status output:"; echo "$st"; }
"$sb" build "${sets[@]}" "$stack" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 4 ] && grep -q 'run `stackbench teardown plain`' "$tmp/err" && ok "rebuild over leftovers refused (exit 4)" ||
	bad "rebuild over leftovers: exit $rc: $(cat "$tmp/err")"
"$sb" teardown plain 2>"$tmp/err" && ok "teardown" || bad "teardown: $(cat "$tmp/err")"
expect_clean "teardown"
"$sb" teardown plain >/dev/null 2>&1; rc=$?
[ $rc -ne 0 ] && ok "teardown of an unknown stack fails ($rc)" || bad "teardown of a gone stack succeeded"

# --- 2. kill -9 at a step boundary, then teardown --all -----------------
for after in loop ext4 mount; do
	rm -f "$tmp/mark"
	STACKBENCH_TEST_PAUSE_AT=after:$after STACKBENCH_TEST_PAUSE_MARK=$tmp/mark \
		"$sb" -q build "${sets[@]}" "$stack" >/dev/null 2>&1 &
	bgpid=$!
	for _ in $(seq 300); do [ -e "$tmp/mark" ] && break; sleep 0.1; done
	[ -e "$tmp/mark" ] || bad "build never reached the pause after $after"
	kill -9 "$bgpid"; wait "$bgpid" 2>/dev/null; bgpid=
	"$sb" status | grep -q "not running" && ok "status shows the killed build's pid as not running" ||
		bad "status after kill -9 after $after"
	"$sb" -q teardown --all 2>"$tmp/err" && ok "teardown --all after kill -9 after $after" ||
		bad "teardown --all after kill -9 after $after: $(cat "$tmp/err")"
	expect_clean "kill -9 after $after"
done

# --- 3. SIGINT mid-build rolls back --------------------------------------
rm -f "$tmp/mark"
STACKBENCH_TEST_PAUSE_AT=after:ext4 STACKBENCH_TEST_PAUSE_MARK=$tmp/mark \
	"$sb" build "${sets[@]}" "$stack" >/dev/null 2>"$tmp/err" &
bgpid=$!
for _ in $(seq 300); do [ -e "$tmp/mark" ] && break; sleep 0.1; done
kill -INT "$bgpid"; wait "$bgpid"; rc=$?; bgpid=
[ $rc -eq 130 ] && ok "SIGINT: build exited 130" || bad "SIGINT: build exited $rc: $(cat "$tmp/err")"
grep -q "interrupted" "$tmp/err" && ok "SIGINT: says interrupted" || bad "SIGINT message: $(cat "$tmp/err")"
expect_clean "SIGINT rollback"

# --- 4. a layer that fails rolls back, naming the layer (an allowed option
#        the kernel refuses: ext4 takes no async commit with data=ordered) --
"$sb" build "${sets[@]}" --set fs.mount_options=journal_async_commit,data=ordered "$stack" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -ne 0 ] && grep -q "layer mount: " "$tmp/err" && ok "failing mount: exit $rc, names the layer" ||
	bad "failing mount: exit $rc: $(cat "$tmp/err")"
expect_clean "rollback after a failed layer"

# --- 5. a busy mount: teardown names the holder, keeps the state, and a
#        second teardown finishes once the holder is gone ------------------
"$sb" -q build "${sets[@]}" "$stack" >/dev/null 2>"$tmp/err" || bad "build for the busy test: $(cat "$tmp/err")"
(cd "$STACKBENCH_STATE_DIR/mnt/plain" && exec sleep 300) &
bgpid=$!
sleep 0.5
"$sb" teardown plain >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 4 ] && grep -q "pid $bgpid (sleep)" "$tmp/err" && ok "busy mount: exit 4, names pid $bgpid (sleep)" ||
	bad "busy mount: exit $rc: $(cat "$tmp/err")"
[ -f "$STACKBENCH_STATE_DIR/plain.state" ] && ok "busy mount: state kept for a later teardown" || bad "busy mount: state deleted"
kill "$bgpid"; wait "$bgpid" 2>/dev/null; bgpid=
"$sb" teardown plain 2>"$tmp/err" && ok "teardown after the holder left" || bad "second teardown: $(cat "$tmp/err")"
expect_clean "busy mount"

# --- 6. a stack needing md on a kernel without it -------------------------
if [ ! -e /proc/mdstat ]; then
	"$sb" build "${sets[@]}" "$src/stacks/ext4.yml" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc -ne 0 ] && grep -q 'this kernel has no md.*use `stackbench build-and-test`' "$tmp/err" &&
		ok "md stack on a kernel without md: refused, points to build-and-test" ||
		bad "md stack without md: exit $rc: $(cat "$tmp/err")"
	expect_clean "refused md stack"
fi

# --- 7. needs root -------------------------------------------------------
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$sb" 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$sb" build "${sets[@]}" "$stack" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc -eq 3 ] && grep -q "needs root" "$tmp/err" && ok "non-root build: exit 3" || bad "non-root build: exit $rc: $(cat "$tmp/err")"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$sb" teardown --all >/dev/null 2>&1; rc=$?
	[ $rc -eq 3 ] && ok "non-root teardown: exit 3" || bad "non-root teardown: exit $rc"
else
	echo "skip: non-root check (binary not reachable as nobody)"
fi

sb_end
