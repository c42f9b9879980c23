# Shared by the integration tests (sourced, not run): loop devices found and
# detached through sysfs, and a leak check that cannot race.
#
# Why sysfs and a bounded wait: LOOP_CLR_FD on a device that someone still
# has open (udev's probe after a job, blkid, a lazy close) only marks it for
# autoclear and returns; the device detaches when the last opener closes.
# `losetup -j` right after `losetup -d` can therefore still list it - or
# list it and lose it between its scan and its print (an empty name). The
# helpers below take the device name from the sysfs directory itself, so a
# line is never printed half, and wait a bounded time for a detach to finish
# before calling anything a leak.

SB_ROOT=${SB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SB=${SB_BIN:-${STACKBENCH_BIN:-$SB_ROOT/build/stackbench}}
SB_DETACH_WAIT=${SB_DETACH_WAIT:-10}   # seconds a detach may take to finish

# sb_loops_backed_by TEXT: "/dev/loopN FILE" for every attached loop device
# whose backing file contains TEXT.
sb_loops_backed_by() {
	local f dev back
	for f in /sys/block/loop*/loop/backing_file; do
		dev=${f#/sys/block/}
		dev=/dev/${dev%%/*}
		back=$(cat "$f" 2>/dev/null) || continue   # detached meanwhile
		[[ "$back" == *"$1"* ]] && echo "$dev $back"
	done
	return 0
}

# sb_loop_gone DEV: true once DEV has no backing file any more.
sb_loop_gone() {
	[ ! -e "/sys/block/${1#/dev/}/loop/backing_file" ]
}

# sb_loop_detach DEV...: detach each and wait (bounded) until sysfs says it
# is gone. Returns non-zero, naming the device, if one is still attached.
sb_loop_detach() {
	local d i rc=0
	for d in "$@"; do
		[ -n "$d" ] || continue
		sb_loop_gone "$d" || losetup -d "$d" 2>/dev/null
	done
	for d in "$@"; do
		[ -n "$d" ] || continue
		for ((i = 0; i < SB_DETACH_WAIT * 10; i++)); do
			sb_loop_gone "$d" && break
			sleep 0.1
		done
		sb_loop_gone "$d" || { echo "loop device still attached after ${SB_DETACH_WAIT}s: $d" >&2; rc=1; }
	done
	return $rc
}

# sb_loop_leaks TEXT: after a bounded wait for pending detaches, print one
# line per loop device still backed by a file containing TEXT.
sb_loop_leaks() {
	local i left
	for ((i = 0; i < SB_DETACH_WAIT * 10; i++)); do
		left=$(sb_loops_backed_by "$1")
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	printf '%s\n' "$left"
}

# sb_host_test NAME: the preamble of a host test that works on one scratch
# directory in /dev/shm: sets TMP, FAILED and fail(), and an EXIT trap that
# runs the test's own sb_cleanup_hook (if defined), detaches every loop
# device on files under TMP, fails the test on any it could not, and exits.
sb_host_test() {
	TMP=$(mktemp -d "/dev/shm/sb-$1.XXXXXX")
	FAILED=0
	trap sb_host_cleanup EXIT
	trap 'exit 1' INT TERM
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root" >&2; FAILED=77; exit; }
}
fail() { echo "FAIL: $*" >&2; FAILED=1; }
sb_host_cleanup() {
	local leak
	declare -F sb_cleanup_hook >/dev/null && sb_cleanup_hook
	# shellcheck disable=SC2046
	sb_loop_detach $(sb_loops_backed_by "$TMP/" | cut -d' ' -f1) 2>/dev/null
	leak=$(sb_loop_leaks "$TMP/")
	if [ -n "$leak" ]; then
		echo "FAIL: leaked loop device: $leak" >&2
		FAILED=1
	fi
	rm -rf "$TMP"
	exit $FAILED
}

# sb_uml_test "$0" "$@": the preamble of a test that needs md and
# device-mapper. On a kernel without them it re-runs the script as root
# inside the throwaway kernel (scripts/uml-run.sh) and never returns; there
# (or on a kernel that has them) it checks root and the binary, and sets sb.
sb_uml_test() {
	local self=$1
	shift
	if ! grep -q "^vendor_id.*User Mode Linux" /proc/cpuinfo 2>/dev/null &&
	   { [ ! -e /proc/mdstat ] || [ ! -e /dev/mapper/control ]; }; then
		[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
		exec "$SB_ROOT/scripts/uml-run.sh" -- "$self" "$@"
	fi
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	[ -x "$SB" ] || { echo "FAIL: $SB not built"; exit 1; }
	sb=$SB
}
