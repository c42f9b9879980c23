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

# sb_nothing_left WHAT DIR: after a sb_root_test run, one ok/bad line each
# for "no loop device on files under DIR" and "no state file" (WHAT names
# the step in them).
sb_nothing_left() {
	local leak
	leak=$(sb_loop_leaks "$2")
	[ -z "$leak" ] && ok "$1: no loop device left" || bad "$1: loop device left: $leak"
	ls "$STACKBENCH_STATE_DIR"/*.state >/dev/null 2>&1 && bad "$1: a state file is left" ||
		ok "$1: no state file left"
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
# ok/bad: one line per check for the tests that count their failures in
# fails (layers_lib.sh and safety_paths.sh number theirs instead).
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# sb_host_loop SIZE: a sparse SIZE file $TMP/img on a loop device, in LOOP.
sb_host_loop() {
	truncate -s "$1" "$TMP/img"
	LOOP=$(losetup -f --show "$TMP/img")
}
sb_host_cleanup() {
	local leak m
	declare -F sb_cleanup_hook >/dev/null && sb_cleanup_hook
	# whatever the test mounted under TMP, innermost first
	for m in $(findmnt -rn -o TARGET | grep -F "$TMP/" | sort -r); do umount "$m"; done
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

# sb_plain_test NAME: the preamble of a test that builds nothing on the
# host's block layer itself: sb and src, the binary checked, a scratch dir
# tmp (SB_TEST_DIR when the harness gives one) and a private state dir.
sb_plain_test() {
	sb=$SB
	src=$SB_ROOT
	[ -x "$sb" ] || { echo "FAIL: $sb not built"; exit 1; }
	tmp=${SB_TEST_DIR:-$(mktemp -d "/tmp/sb-$1.XXXXXX")}
	mkdir -p "$tmp"
	export STACKBENCH_STATE_DIR=$tmp/$1-state
}

# sb_root_test NAME: the preamble of a host test that builds stacks on loop
# devices of this kernel: root checked, sb and src, a private scratch dir
# tmp with the state dir in it, and an EXIT trap that tears down what that
# state records and removes tmp.
sb_root_test() {
	sb=$SB
	src=$SB_ROOT
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/sb-$1.XXXXXX")
	export STACKBENCH_STATE_DIR=$tmp/state
	trap '"$sb" -q teardown --all >/dev/null 2>&1; rm -rf "$tmp"' EXIT
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

# sb_wait_until PID SECONDS CMD...: poll CMD every 0.1 s until it succeeds
# (returns 0), PID has exited or SECONDS have passed; then tries CMD a last
# time, so a condition met by the very last act of PID still counts.
sb_wait_until() {
	local pid=$1 n=$(($2 * 10)) i
	shift 2
	for ((i = 0; i < n; i++)); do
		"$@" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	"$@" 2>/dev/null
}

# sb_start_paused MARK POINT LOG CMD...: run CMD (a stackbench command line)
# in the background with STACKBENCH_TEST_PAUSE_AT=POINT, output to LOG;
# sets sb_bg_pid. Returns 0 once it paused at POINT (it touched MARK), 1 if
# it ended first or did not get there within 300 s.
sb_start_paused() {
	local mark=$1 point=$2 log=$3
	shift 3
	rm -f "$mark"
	STACKBENCH_TEST_PAUSE_AT=$point STACKBENCH_TEST_PAUSE_MARK=$mark "$@" >"$log" 2>&1 &
	sb_bg_pid=$!
	sb_wait_until "$sb_bg_pid" 300 test -e "$mark"
}

# sb_start_suite SUITE LOG CMD...: run CMD (a build-and-test) in the
# background, output to LOG, sets sb_bg_pid; returns 0 once SUITE has run
# for a second and the run is not yet tearing down, 1 otherwise.
sb_start_suite() {
	local suite=$1 log=$2
	shift 2
	"$@" >"$log" 2>&1 &
	sb_bg_pid=$!
	sb_wait_until "$sb_bg_pid" 300 grep -q "suite $suite" "$log" || return 1
	sleep 1
	! grep -q "tearing down" "$log" && kill -0 "$sb_bg_pid" 2>/dev/null
}

# sb_reap SIGNAL PID: send SIGNAL to PID (if still there) and wait for it;
# returns its exit status.
sb_reap() {
	kill -"$1" "$2" 2>/dev/null
	wait "$2"
}

# sb_signal_wait SIGNAL PID SECONDS: send SIGNAL and give PID SECONDS to
# exit; if it is still there then, sb_late=1 and it gets a kill -9.
# Returns PID's exit status.
sb_signal_wait() {
	local pid=$2 i
	sb_late=0
	kill -"$1" "$pid"
	for ((i = 0; i < $3 * 10; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && { sb_late=1; kill -9 "$pid"; }
	wait "$pid"
}

# sb_uml_scratch NAME: after sb_uml_test, the rest of its preamble: a
# scratch directory tmp (under SB_TEST_DIR, default /tmp) with a private
# state dir in it, fails=0 and fail() counting into it, and an EXIT trap
# that tears down what the private state records, runs the test's own
# sb_cleanup_hook (if defined) and removes tmp.
sb_uml_scratch() {
	tmp=$(mktemp -d "${SB_TEST_DIR:-/tmp}/sb-$1.XXXXXX")
	export STACKBENCH_STATE_DIR=$tmp/state
	fails=0
	fail() { sb_uml_fail "$@"; }
	trap sb_uml_cleanup EXIT
}

# sb_uml_scratch_test NAME "$0" "$@": sb_uml_test, then sb_uml_scratch
# NAME: the preamble of a UML test that keeps its files in a scratch dir.
sb_uml_scratch_test() {
	local name=$1
	shift
	sb_uml_test "$@"
	sb_uml_scratch "$name"
}

# sb_uml_tmp: for the UML tests that count in FAILED (as the host tests
# do): TMP, the harness's per-test dir when it gives one, and FAILED=0.
sb_uml_tmp() {
	TMP=${SB_TEST_DIR:-$(mktemp -d)}
	mkdir -p "$TMP"
	FAILED=0
}
sb_uml_cleanup() {
	"$SB" -q teardown --all >/dev/null 2>&1
	declare -F sb_cleanup_hook >/dev/null && sb_cleanup_hook
	rm -rf "$tmp"
}
sb_uml_fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# sb_probe_verdict DESC WANT WORD RC OUT MSGFILE: judge one run of the
# safety probe (tests/tools: prints "OK" or "REFUSED <errno name>"): WANT is
# OK or the errno name the refusal must carry, WORD text its message
# (MSGFILE) must contain. Prints "ok N - DESC" or "not ok ..." with the
# message; counts in n and fails.
sb_probe_verdict() {
	local desc=$1 want=$2 word=$3 rc=$4 out=$5 msg ok=1
	msg=$(cat "$6")
	n=$((n + 1))
	if [ "$want" = OK ]; then
		[ "$rc" -eq 0 ] && [ "${out%%$'\n'*}" = OK ] || ok=0
	else
		[ "$rc" -eq 1 ] && [ "${out%%$'\n'*}" = "REFUSED $want" ] || ok=0
		grep -qiF -- "$word" <<<"$msg" || ok=0
	fi
	if [ $ok = 1 ]; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc (want $want${word:+ /$word/}; got rc=$rc: $out)"
		sed 's/^/    # /' <<<"$msg"
		fails=$((fails + 1))
	fi
}

# sb_results_py DIR < CHECKS: run the Python CHECKS with r, the one results
# file in DIR (parsed), and layers, its built layers by name; the checks
# assert; the status is Python's.
sb_results_py() {
	python3 -c 'import json, os, sys
d = sys.argv[1]
files = os.listdir(d)
assert len(files) == 1, files
r = json.load(open(os.path.join(d, files[0])))
layers = {l["layer"]: l for l in r["stack"]["built"]}
'"$(cat)" "$1"
}

# sb_tap_end: the TAP plan for the n checks run, then PASS, or FAIL with
# how many of them failed (fails); exits 0 or 1.
sb_tap_end() {
	echo "1..$n"
	if [ "$fails" -ne 0 ]; then
		echo "FAIL: $fails of $n checks failed"
		exit 1
	fi
	echo "PASS: $n checks"
	exit 0
}

# A shipped stack for the generic provisioning test (prov_stacks),
# without its export: section and its bench.size: they
# check the storage stack below (md, LVM, LUKS, fs: still built and checked
# here) with 64-256 MiB members; the export layer (namespaces, veth, private
# daemons, client mounts, its own leak checks) needs build-and-test and is
# export_luks's and export_kill's. Prints the file to use (the same one
# when it has no export:); the copy keeps the basename (the stack's name).
sb_without_export() { # FILE DIR
	local f=$1 out
	grep -q '^export:' "$f" || { echo "$f"; return 0; }
	out=$2/$(basename "$f")
	python3 - "$f" "$out" <<'PY' || return 1
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
d.pop("export", None)
if isinstance(d.get("bench"), dict):
    d["bench"].pop("size", None)
yaml.safe_dump(d, open(sys.argv[2], "w"), sort_keys=False)
PY
	echo "$out"
}
