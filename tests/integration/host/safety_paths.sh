#!/bin/bash
# Safety, second pass (issue 12), on THIS kernel with loop devices:
#  - the exit-code table: bad stack 2, every refusal 5 (not a block device,
#    a signature, no consent, an untrusted directory, a held-open disk);
#  - `job --target` on a mounted filesystem's device is refused (exit 5) and
#    the filesystem survives; a clean device needs --destroy-data; reads
#    are free;
#  - a work directory planted as a symlink, or owned by another user, is
#    refused (exit 5) and nothing is created through it;
#  - forged state files: one owned by another user is not acted on; one
#    naming a file outside stackbench's run directory deletes nothing;
#  - a `disks:` stack built end to end on a loop "disk" (--destroy-data),
#    then the repointed link: the by-id style link is changed between the
#    checks and the first write (test hook disks:handoff) and the build is
#    refused with nothing written to either disk.
# Needs root.   tests/integration/host/safety_paths.sh
set -u
. "$(dirname "$0")/../lib.sh"
sb_test safety-paths --root --scratch --tap
for t in losetup mkfs.ext4 mount umount findmnt blkid; do
	command -v "$t" >/dev/null || sb_skip "$t not installed"
done

byid=$(mktemp -d /dev/sb-safety-paths.XXXXXX)
work=$tmp/work
bgpid=
# at exit, before sb_test's teardown, unmount and detach
sb_cleanup_hook() {
	[ -n "$bgpid" ] && kill -9 "$bgpid" 2>/dev/null
	rm -rf "$byid"
}
# expect WANT-RC WORD DESC -- CMD...: exit code and a word of the message
expect() {
	local want=$1 word=$2 desc=$3 rc
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" -eq "$want" ] && { [ -z "$word" ] || grep -qiF -- "$word" "$tmp/err"; }; then
		ok "$desc (exit $rc)"
	else
		bad "$desc: want exit $want /$word/, got $rc: $(head -c 600 "$tmp/err")"
	fi
}
new_loop() {
	local f=$tmp/$1.img dev
	[ -e "$f" ] || truncate -s 64M "$f"
	for _ in 1 2 3 4 5; do
		dev=$(losetup -f --show "$f" 2>/dev/null) && { echo "$dev"; return 0; }
		sleep 0.2
	done
	return 1
}

set -e
A=$(new_loop a)
B=$(new_loop b)
M=$(new_loop mounted)
mkfs.ext4 -q -F "$M"
mkdir "$tmp/mnt"
mount "$M" "$tmp/mnt"
echo precious >"$tmp/mnt/file"
set +e
echo "# disks $A $B, mounted $M"

# --- the exit-code table -------------------------------------------------
expect 2 "is not allowed" "bad stack description: exit 2" -- \
	"$sb" validate --set 'fs.mkfs_options=-z /x' "$src/tests/stacks/plain.yml"
printf 'devices:\n  disks: [%s]\nfs: {mount_options: noatime}\n' "$A" >"$tmp/disk-a.yml"
printf 'devices:\n  disks: [/dev/null]\n' >"$tmp/disk-null.yml"
expect 5 "not a block device" "not a block device: exit 5" -- "$sb" build --destroy-data=/dev/null "$tmp/disk-null.yml"
expect 5 "--destroy-data" "no consent: exit 5" -- "$sb" build "$tmp/disk-a.yml"
printf 'devices:\n  disks: [%s]\n' "$M" >"$tmp/disk-m.yml"
expect 5 "mounted at" "mounted disk: exit 5" -- "$sb" build --destroy-data="$M" "$tmp/disk-m.yml"
# shellcheck disable=SC2217  # the redirect is the point: a plain open of the disk
sleep 600 <"$A" &
bgpid=$!
sleep 0.3
expect 5 "pid $bgpid (sleep)" "disk held open by a process: exit 5, names it" -- \
	"$sb" build --destroy-data="$A" "$tmp/disk-a.yml"
kill "$bgpid"; wait "$bgpid" 2>/dev/null; bgpid=

# --- job / bench --target on a block device ------------------------------
expect 5 "mounted at" "job write on a mounted device: exit 5" -- \
	"$sb" job --target "$M" --rw write --bs 4KiB --size 4MiB --destroy-data="$M"
expect 5 "mounted at" "bench --target on a mounted device: exit 5" -- \
	"$sb" bench --suite dd --target "$M" --destroy-data="$M"
if [ "$(cat "$tmp/mnt/file" 2>/dev/null)" = precious ] && [ "$(blkid -p -o value -s TYPE "$M")" = ext4 ]; then
	ok "the mounted filesystem survived"
else
	bad "the mounted filesystem was damaged"
fi
expect 0 "" "job read on a mounted device stays free" -- \
	"$sb" job --target "$M" --rw read --bs 4KiB --size 4MiB
expect 5 "--destroy-data=$B" "job write on a clean device without --destroy-data: exit 5" -- \
	"$sb" job --target "$B" --rw write --bs 4KiB --size 4MiB
expect 0 "" "job write with --destroy-data naming it" -- \
	"$sb" job --target "$B" --rw write --bs 4KiB --size 4MiB --destroy-data="$B"

# --- planted work directories --------------------------------------------
mkdir -p "$tmp/elsewhere" "$work"
chmod 0700 "$work"
ln -s "$tmp/elsewhere" "$work/plain"
expect 5 "symbolic link" "work directory planted as a symlink: exit 5" -- \
	"$sb" build --set "devices.loop.dir=$work" "$src/tests/stacks/plain.yml"
[ -z "$(ls -A "$tmp/elsewhere")" ] && ok "nothing created through the link" || bad "created $(ls "$tmp/elsewhere")"
rm "$work/plain"
mkdir "$work/plain"
chown 65534:65534 "$work/plain"
expect 5 "owned by another user" "foreign-owned run directory: exit 5" -- \
	"$sb" build --set "devices.loop.dir=$work" "$src/tests/stacks/plain.yml"
[ -z "$(ls -A "$work/plain")" ] && ok "nothing created in it" || bad "created $(ls "$work/plain")"
rmdir "$work/plain"
mkdir "$tmp/shared" && chmod 0777 "$tmp/shared"
expect 5 "written by others" "world-writable work directory: exit 5" -- \
	"$sb" build --set "devices.loop.dir=$tmp/shared" "$src/tests/stacks/plain.yml"
"$sb" teardown --all >/dev/null 2>&1

# --- forged state files --------------------------------------------------
mkdir -p "$STACKBENCH_STATE_DIR"
echo keep >"$tmp/victim"
cat >"$STACKBENCH_STATE_DIR/forged.state" <<EOF
{"stack": "forged", "source": "", "pid": 1, "started": "",
 "objects": [{"layer": "loop", "kind": "file", "id": "$tmp/victim", "extra": ""}]}
EOF
chown 65534 "$STACKBENCH_STATE_DIR/forged.state"
expect 5 "not a state file stackbench wrote" "state file owned by another user: exit 5" -- "$sb" teardown forged
chown 0 "$STACKBENCH_STATE_DIR/forged.state"
"$sb" teardown forged >/dev/null 2>"$tmp/err"
[ -e "$tmp/victim" ] && ok "a root-owned state naming a file outside the run directory deleted nothing" ||
	bad "teardown deleted $tmp/victim: $(cat "$tmp/err")"
grep -q "not deleting $tmp/victim" "$tmp/err" && ok "and says so" || bad "message: $(cat "$tmp/err")"
rm -f "$STACKBENCH_STATE_DIR/forged.state"
# a state rewrite killed between its temp file and the rename (finding 12)
true & deadpid=$!; wait $deadpid
echo '{}' >"$STACKBENCH_STATE_DIR/ghost.state.tmp.$deadpid"
echo '{}' >"$STACKBENCH_STATE_DIR/live.state.tmp.$$"
"$sb" teardown --all >/dev/null 2>&1
[ ! -e "$STACKBENCH_STATE_DIR/ghost.state.tmp.$deadpid" ] && ok "teardown --all removes a dead writer's temp state file" ||
	bad "teardown --all left $STACKBENCH_STATE_DIR/ghost.state.tmp.$deadpid"
[ -e "$STACKBENCH_STATE_DIR/live.state.tmp.$$" ] && ok "and keeps a live writer's" || bad "removed a live writer's temp file"
rm -f "$STACKBENCH_STATE_DIR/live.state.tmp.$$"

# --- a disks: stack end to end, then the repointed link ------------------
ln -s "$A" "$byid/disk0"
printf 'devices:\n  disks: [%s]\nfs: {mount_options: noatime}\n' "$byid/disk0" >"$tmp/disk-link.yml"
expect 0 "" "build of a disks: stack on a loop disk" -- "$sb" build --destroy-data="$byid/disk0" "$tmp/disk-link.yml"
[ "$(blkid -p -o value -s TYPE "$A")" = ext4 ] && ok "the disk carries the new ext4" || bad "no ext4 on $A"
expect 0 "" "teardown of the disks: stack" -- "$sb" teardown disk-link
wipefs -q -a "$A"
# B gets a signature the checks would refuse; the link moves to it after
# the checks passed on A
mkfs.ext4 -q -F -L victim "$B"
export STACKBENCH_TEST_PAUSE_AT=disks:handoff STACKBENCH_TEST_PAUSE_MARK=$tmp/mark
"$sb" build --destroy-data="$byid/disk0" "$tmp/disk-link.yml" >/dev/null 2>"$tmp/err" &
bgpid=$!
for _ in $(seq 300); do [ -e "$tmp/mark" ] && break; sleep 0.1; done
ln -sfn "$B" "$byid/disk0"
rm -f "$tmp/mark"
wait "$bgpid"; rc=$?; bgpid=
unset STACKBENCH_TEST_PAUSE_AT STACKBENCH_TEST_PAUSE_MARK
if [ $rc -eq 5 ] && grep -q "the path now leads to another device" "$tmp/err"; then
	ok "link repointed between check and write: refused (exit 5)"
else
	bad "repointed link: exit $rc: $(cat "$tmp/err")"
fi
[ "$(blkid -p -o value -s LABEL "$B")" = victim ] && ok "the other disk is untouched" || bad "$B was written"
[ -z "$(blkid -p -o value -s TYPE "$A")" ] && ok "nothing was written to the checked disk" || bad "$A was written"
"$sb" teardown --all >/dev/null 2>&1

sb_end
