# The integration tests' library (sourced, not run): a test's one preamble,
# failure counter and exit (sb_test, below: every new test starts with
# it), loop devices found and detached through sysfs, and a leak check
# that cannot race. Results files are read through tests/tools/sbresults.py
# (sb_test puts it on PYTHONPATH; sb_results runs its command line).
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

# ---------------------------------------------------------------------
# The one preamble, failure counter and exit of a test.
#
# sb_test NAME [--root] [--uml] [--scratch|--shm] [--tap] [-- ARGS...]: the first line
# of a test after sourcing this file. Sets SB and sb (the binary, checked
# built), src (the source tree), PYTHONPATH (tests/tools: `import sbresults`
# in a test's Python), the counter below and an EXIT trap that ends it.
#   --root     needs root: SKIP (exit 77) for anyone else.
#   --uml      needs md and device-mapper (and root): on a kernel without
#              them it runs the script again, with ARGS, inside the
#              throwaway kernel (scripts/uml-run.sh) and never returns.
#   --scratch  a private scratch dir TMP (also named tmp) under SB_TEST_DIR
#              (the harness's per-test dir; /tmp without one),
#              with a private STACKBENCH_STATE_DIR, $TMP/state, in it.
#   --shm      --scratch, the dir in /dev/shm (a tmpfs) instead: for the
#              host tests whose files (loop images, bonnie's) would cost
#              disk time on a loaded machine; the same cleanup and leak check.
#   --tap      the checks as numbered TAP lines ("ok 3 - MSG", "not ok 4 -
#              MSG") and the plan ("1..N") at the end.
# At exit, in this order: the test's own sb_cleanup_hook (if it defines
# one); with --scratch, a teardown of what the private state still records,
# an unmount of everything mounted under TMP (innermost first), a detach of
# every loop device on a file under TMP, the leak check (a mount, or a loop
# device still there after a bounded wait, FAILS the test) and TMP removed.
#
# The counter: sb_fail MSG (also fail and bad) prints "FAIL: MSG" and
# counts; sb_pass MSG (also ok) prints "ok: MSG". The exit status: 1 if
# any check failed; 77 after sb_skip MSG; the status of an early `exit N`
# (N > 0); else 0 once the script reached its last line, sb_end. An exit 0
# before sb_end fails: a script that stops half-way does not pass.
sb_test() {
	local uml= root= scratch= base=${SB_TEST_DIR:-/tmp}
	sb_tap=
	sb_name=$1
	shift
	while [ $# -gt 0 ]; do
		case "$1" in
		--root) root=1 ;;
		--uml) uml=1 ;;
		--scratch) scratch=1 ;;
		--shm) scratch=1 base=/dev/shm ;;
		--tap) sb_tap=1 ;;
		--) shift; break ;;
		*) echo "FAIL: sb_test: unknown flag $1"; exit 1 ;;
		esac
		shift
	done
	sb_fails=0 sb_passes=0 sb_finished= sb_scratch=
	fail() { sb_fail "$@"; }
	bad() { sb_fail "$@"; }
	ok() { sb_pass "$@"; }
	if [ -n "$uml" ] && ! sb_has_md_dm; then
		[ "$(id -u)" = 0 ] || { echo "SKIP: $sb_name needs root (and the throwaway kernel)"; exit 77; }
		exec "$SB_ROOT/scripts/uml-run.sh" -- "$0" "$@"
	fi
	{ [ -n "$root" ] || [ -n "$uml" ]; } && [ "$(id -u)" != 0 ] &&
		{ echo "SKIP: $sb_name needs root"; exit 77; }
	[ -x "$SB" ] || { echo "FAIL: $SB not built"; exit 1; }
	sb=$SB
	src=$SB_ROOT
	export PYTHONPATH=$SB_ROOT/tests/tools${PYTHONPATH:+:$PYTHONPATH}
	trap sb_test_exit EXIT
	trap 'exit 130' INT TERM
	if [ -n "$scratch" ]; then
		sb_scratch=$(mktemp -d "$base/sb-$sb_name.XXXXXX") ||
			{ echo "FAIL: no scratch dir"; exit 1; }
		TMP=$sb_scratch
		tmp=$sb_scratch
		export STACKBENCH_STATE_DIR=$sb_scratch/state
	fi
}
# sb_has_md_dm: true in the throwaway kernel, or on a kernel with md and
# device-mapper.
sb_has_md_dm() {
	grep -q "^vendor_id.*User Mode Linux" /proc/cpuinfo 2>/dev/null ||
		{ [ -e /proc/mdstat ] && [ -e /dev/mapper/control ]; }
}
sb_fail() {
	sb_fails=$((sb_fails + 1))
	if [ -n "$sb_tap" ]; then echo "not ok $((sb_fails + sb_passes)) - $*"; else echo "FAIL: $*"; fi
}
sb_pass() {
	sb_passes=$((sb_passes + 1))
	if [ -n "$sb_tap" ]; then echo "ok $((sb_fails + sb_passes)) - $*"; else echo "ok: $*"; fi
}
sb_skip() { echo "SKIP: $*"; exit 77; }
sb_end() { sb_finished=1; exit 0; }
# sb_results ARGS...: tests/tools/sbresults.py (get FILE PATH, len FILE
# PATH, figure FILE SUITE KEY, check FILE...): a value of a results file.
sb_results() { python3 "$SB_ROOT/tests/tools/sbresults.py" "$@"; }

# The EXIT trap of sb_test.
sb_test_exit() {
	local rc=$? m leak
	trap - EXIT INT TERM
	set +e   # a test that stopped inside its own `set -e` part still gets all of this
	declare -F sb_cleanup_hook >/dev/null && sb_cleanup_hook
	if [ -n "$sb_scratch" ]; then
		[ -d "$STACKBENCH_STATE_DIR" ] && "$SB" -q teardown --all >/dev/null 2>&1
		for m in $(findmnt -rn -o TARGET | grep -F "$sb_scratch/" | sort -r); do
			umount "$m" 2>/dev/null || umount -l "$m"
		done
		leak=$(findmnt -rn -o TARGET | grep -F "$sb_scratch/")
		[ -z "$leak" ] || sb_fail "leaked mount: $leak"
		# shellcheck disable=SC2046
		sb_loop_detach $(sb_loops_backed_by "$sb_scratch/" | cut -d' ' -f1) 2>/dev/null
		leak=$(sb_loop_leaks "$sb_scratch/")
		[ -z "$leak" ] || sb_fail "leaked loop device: $leak"
		rm -rf "$sb_scratch"
	fi
	if [ "$rc" = 77 ] && [ "$sb_fails" = 0 ]; then exit 77; fi
	[ "$rc" = 0 ] && [ -z "$sb_finished" ] && sb_fail "$sb_name stopped before its end (sb_end)"
	[ -n "$sb_tap" ] && echo "1..$((sb_fails + sb_passes))"
	if [ "$sb_fails" != 0 ]; then
		echo "FAIL: $sb_name: $sb_fails failed, $sb_passes passed"
		exit 1
	fi
	[ "$rc" = 0 ] || { echo "FAIL: $sb_name: exit $rc"; exit "$rc"; }
	echo "PASS: $sb_name ($sb_passes checks passed)"
	exit 0
}

# sb_nothing_left WHAT DIR: after a run of a sb_test --scratch test, one ok/bad line each
# for "no loop device on files under DIR" and "no state file" (WHAT names
# the step in them).
sb_nothing_left() {
	local leak
	leak=$(sb_loop_leaks "$2")
	[ -z "$leak" ] && ok "$1: no loop device left" || bad "$1: loop device left: $leak"
	ls "$STACKBENCH_STATE_DIR"/*.state >/dev/null 2>&1 && bad "$1: a state file is left" ||
		ok "$1: no state file left"
}

# The preambles before sb_test, for the tests not converted to it yet
# (sb_host_test, sb_uml_test, sb_uml_scratch_test): new tests
# use sb_test.
#
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

# sb_uml_test "$0" "$@": the preamble of a test that needs md and
# device-mapper. On a kernel without them it re-runs the script as root
# inside the throwaway kernel (scripts/uml-run.sh) and never returns; there
# (or on a kernel that has them) it checks root and the binary, and sets sb.
sb_uml_test() {
	local self=$1
	shift
	if ! sb_has_md_dm; then
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

# sb_uml_scratch_test NAME "$0" "$@": sb_uml_test, then a scratch
# directory tmp (under SB_TEST_DIR, default /tmp) with a private state dir
# in it, fails=0 and fail() counting into it, and an EXIT trap that tears
# down what the private state records, runs the test's own sb_cleanup_hook
# (if defined) and removes tmp.
sb_uml_scratch_test() {
	local name=$1
	shift
	sb_uml_test "$@"
	tmp=$(mktemp -d "${SB_TEST_DIR:-/tmp}/sb-$name.XXXXXX")
	export STACKBENCH_STATE_DIR=$tmp/state
	fails=0
	fail() { sb_uml_fail "$@"; }
	trap sb_uml_cleanup EXIT
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
# (MSGFILE) must contain. One check of sb_test's counter: sb_pass DESC, or
# sb_fail with what was wanted and got, then the message.
sb_probe_verdict() {
	local desc=$1 want=$2 word=$3 rc=$4 out=$5 msg ok=1
	msg=$(cat "$6")
	if [ "$want" = OK ]; then
		[ "$rc" -eq 0 ] && [ "${out%%$'\n'*}" = OK ] || ok=0
	else
		[ "$rc" -eq 1 ] && [ "${out%%$'\n'*}" = "REFUSED $want" ] || ok=0
		grep -qiF -- "$word" <<<"$msg" || ok=0
	fi
	if [ $ok = 1 ]; then sb_pass "$desc"; return; fi
	sb_fail "$desc (want $want${word:+ /$word/}; got rc=$rc: $out)"
	sed 's/^/    # /' <<<"$msg"
}

# sb_results_py DIR < CHECKS: run the Python CHECKS with r, the one results
# file in DIR (parsed), layers, its built layers by name, and sbresults
# (tests/tools/sbresults.py); the checks assert; the status is Python's.
sb_results_py() {
	PYTHONPATH=$SB_ROOT/tests/tools${PYTHONPATH:+:$PYTHONPATH} python3 -c 'import sys, sbresults
r = sbresults.one(sys.argv[1])
layers = sbresults.layers(r)
'"$(cat)" "$1"
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
