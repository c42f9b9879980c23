#!/bin/bash
# Integration harness. Runs every executable tests/integration/host/*.sh on
# this kernel, then every tests/integration/uml/*.sh where md and
# device-mapper exist: natively when this kernel has them, otherwise inside
# throwaway user-mode-linux kernels (scripts/uml-run.sh), one per core, each
# taking the next test from one shared queue (heaviest first) until none is
# left. Each test gets a private STACKBENCH_STATE_DIR and SB_TEST_DIR (put
# every file it creates there), a timeout, and a leak check afterwards:
# loop devices, md arrays, dm devices, mounts and state files it left make it
# FAIL, and are cleaned up. A test's own side of this (lib.sh's sb_test:
# one preamble, one failure counter, a scratch dir under SB_TEST_DIR and
# its leak check at exit) is described in tests/integration/lib.sh.
#   tests/integration/run.sh [--native|--sandbox] [NAME-FILTER...]
#   tests/integration/run.sh --host-only [NAME-FILTER...]
# The throwaway-kernel part in pieces, so another long job can share the
# cores (scripts/test.sh runs the relations benchmark beside the host tests
# and each side then joins the queue):
#   tests/integration/run.sh --queue DIR [NAME-FILTER...]   make the queue
#   tests/integration/run.sh --worker DIR    one kernel working the queue
#   tests/integration/run.sh --collect DIR   count it: "N passed, N failed"
# Environment: STACKBENCH_BIN (default build/stackbench), SB_TEST_TIMEOUT
# (seconds per test, default 1500). Ends with "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
export SB_ROOT=$root
export STACKBENCH_BIN=${STACKBENCH_BIN:-$root/build/stackbench}
timeout_s=${SB_TEST_TIMEOUT:-1500}
. "$root/tests/integration/lib.sh"
mode=auto
part=all
queue=
results=
filters=()
while [ $# -gt 0 ]; do
	case "$1" in
	--native) mode=native ;;
	--sandbox) mode=sandbox ;;
	--host-only) part=host ;;
	--queue|--worker|--collect|--inside)  # --inside: internal, the boot's PID-1 job
		part=${1#--}; queue=${2:?$1 needs a directory}; shift ;;
	-h|--help) sed -n '2,24p' "$0"; exit 0 ;;
	*) filters+=("$1") ;;
	esac
	shift
done

matches() {
	local n=$1 f
	[ ${#filters[@]} -eq 0 ] && return 0
	for f in "${filters[@]}"; do
		case "$n" in *"$f"*) return 0 ;; esac
	done
	return 1
}

# Kernel objects a test may leave behind, one per line, for diffing.
snapshot() {
	sb_loops_backed_by "" | sed 's/^/loop /'
	grep -E '^md[0-9a-z_]+ :' /proc/mdstat 2>/dev/null | awk '{print "md /dev/" $1}'
	for d in /sys/block/dm-*; do [ -e "$d" ] && echo "dm $(cat "$d/dm/name" 2>/dev/null) ${d##*/}"; done
	awk '{print "mount " $5 " " $10}' /proc/self/mountinfo
	[ -d /run/stackbench ] && find /run/stackbench -mindepth 1 -maxdepth 1 | sed 's/^/run /'
}

# Leaks = new objects since the baseline. On the shared host (other
# stackbench runs may come and go) only objects naming this test's private
# dir, or stackbench's own mount/state paths, count; inside a private
# kernel everything new counts.
leaks() {
	local base=$1 dir=$2 state=$3 private=$4 i
	# A detach or lazy unmount the test started may still be finishing:
	# look again for a bounded time before calling what is new a leak.
	for ((i = 0; i < SB_DETACH_WAIT * 10; i++)); do
		snapshot | sort > "$logdir/after"
		[ -z "$(leaks_in "$base" "$dir" "$state" "$private")" ] && break
		sleep 0.1
	done
	leaks_in "$base" "$dir" "$state" "$private"
	[ -n "$(ls -A "$state" 2>/dev/null)" ] && echo "state files left in $state: $(ls -A "$state" | tr '\n' ' ')"
}

# leaks_in BASE DIR STATE PRIVATE: what $logdir/after has that BASE has not.
leaks_in() {
	local base=$1 dir=$2 state=$3 private=$4
	comm -13 "$base" "$logdir/after" | while read -r kind a b; do
		if [ -n "$private" ] || [[ "$a $b" == *"$dir"* ]] || [[ "$a $b" == *"$state"* ]] ||
		   { [ "$kind" = mount ] && [[ "$a" == *stackbench* ]]; }; then
			echo "$kind $a $b"
		fi
	done
}

cleanup_leaks() {
	local line kind a b
	while read -r kind a b; do
		case "$kind" in
		mount) umount -l "$a" 2>/dev/null ;;
		dm) dmsetup remove --force "$a" 2>/dev/null ;;
		md) mdadm --stop "$a" >/dev/null 2>&1 ;;
		esac
	done < <(grep -E '^(mount|dm|md) ' "$1" | sort -r -k1,1)
	while read -r kind a b; do
		[ "$kind" = loop ] && sb_loop_detach "$a"
	done < "$1"
}

passed=0
failed=0
logdir=$(mktemp -d "${TMPDIR:-/tmp}/sb-it.XXXXXX")
trap 'rm -rf "$logdir"' EXIT

# run_one NAME SCRIPT PRIVATE-KERNEL
run_one() {
	local name=$1 script=$2 private=$3 dir state log t0 rc secs leak copies schema=
	dir=$(mktemp -d "${TMPDIR:-/tmp}/sb-test-$name.XXXXXX")
	state=$dir/state
	copies=$dir.results   # every results file the test writes, copied by stackbench
	mkdir -p "$state" "$dir/tmp" "$copies"
	log=$logdir/$name.log
	snapshot | sort > "$logdir/base"
	t0=$(date +%s)
	STACKBENCH_STATE_DIR=$state SB_TEST_DIR=$dir TMPDIR=$dir/tmp STACKBENCH_TEST_RESULTS_COPY=$copies \
		timeout --kill-after=20 "$timeout_s" "$script" > "$log" 2>&1 < /dev/null
	rc=$?
	# every results file it wrote must match docs/results-schema.json
	if [ -n "$(ls -A "$copies")" ]; then
		schema=$("$root/tests/tools/check_results.py" "$copies" 2>&1)
		case $? in
		0|77) schema= ;;
		*) [ $rc -eq 0 ] && rc=1 ;;
		esac
	fi
	rm -rf "$copies"
	secs=$(( $(date +%s) - t0 ))
	leak=$(leaks "$logdir/base" "$dir" "$state" "$private")
	if [ -n "$leak" ]; then
		printf '%s\n' "$leak" > "$logdir/leak"
		cleanup_leaks "$logdir/leak"
	fi
	if [ $rc -eq 0 ] && [ -z "$leak" ]; then
		echo "PASS $name (${secs}s)"
		passed=$((passed + 1))
		[ -n "$results" ] && echo "PASS $name $secs" >> "$results"
	else
		echo "FAIL $name (${secs}s)"
		[ $rc -eq 124 ] && echo "  timed out after ${timeout_s}s"
		[ $rc -ne 0 ] && [ $rc -ne 124 ] && echo "  exit status $rc"
		[ -n "$leak" ] && printf '  leaked (cleaned up now):\n%s\n' "$(sed 's/^/    /' <<< "$leak")"
		[ -n "$schema" ] && printf '  results files not matching docs/results-schema.json:\n%s\n' "$(sed 's/^/    /' <<< "$schema" | tail -20)"
		echo "  --- last lines of its output ---"
		tail -n 30 "$log" | sed 's/^/  | /'
		failed=$((failed + 1))
		[ -n "$results" ] && echo "FAIL $name $secs" >> "$results"
	fi
	rm -rf "$dir"
}

# weight NAME: a throwaway-kernel test's runtime in seconds, as measured in
# CI's own run of 2026-12-03 (two kernels side by side on a 2-core machine;
# readme_examples from a loaded run); unknown: 60. The queue runs the
# heaviest first so that no long test starts last.
weight() {
	case "$1" in
	readme_examples) echo 370 ;;
	prov_stacks|prov_stacks_2) echo 300 ;;
	export_luks) echo 190 ;;
	e2e_helios) echo 170 ;;
	per_layer_models) echo 265 ;; # 141 s + the stripe_cache matrix (~120 s, estimated from a loaded run)
	crash_signals) echo 145 ;;
	export_kill|crash_kill_steps) echo 100 ;;
	layers_fail|crash_kill_luks|crash_busy|secrets_key) echo 90 ;;
	verdict_ab|crash_hang) echo 75 ;;
	copy_luks|verdict_aa) echo 50 ;;
	cache_stack|fault_degraded) echo 45 ;;
	*) echo 60 ;;
	esac
}

# The queue DIR: DIR/list (the tests, heaviest first), DIR/claim.NAME made
# (mkdir: atomic through hostfs too) by the kernel that runs NAME, and
# DIR/result.NAME ("PASS|FAIL NAME SECONDS") written when it ends.
make_queue() {
	local n
	mkdir -p "$1" || return 1
	for n in "${uml[@]}"; do echo "$(weight "$n") $n"; done | sort -rn | awk '{print $2}' > "$1/list"
}

# Inside a throwaway kernel (or natively): take tests off the queue until
# none is left.
work_queue() {
	local n
	while read -r n; do
		mkdir "$queue/claim.$n" 2>/dev/null || continue
		results=$queue/result.$n
		run_one "$n" "tests/integration/uml/$n.sh" "$1"
	done < "$queue/list"
}

# One throwaway kernel working the queue; its console after it ends.
boot_worker() {
	local n console rc
	n=$(wc -l < "$queue/list")
	console=$(mktemp "${TMPDIR:-/tmp}/sb-uml-console.XXXXXX")
	# at most every test's timeout plus boot time
	timeout --kill-after=30 $(( timeout_s * n + 300 )) \
		scripts/uml-run.sh -- "$root/tests/integration/run.sh" --inside "$queue" > "$console" 2>&1
	rc=$?
	echo "-- throwaway kernel (pid $$, exit $rc):"
	cat "$console"
	rm -f "$console"
}

# Count the queue's results: a test no kernel reported on failed.
collect_queue() {
	local n p=0 f=0
	while read -r n; do
		if grep -qs "^PASS $n " "$queue/result.$n"; then
			p=$((p + 1))
		elif grep -qs "^FAIL $n " "$queue/result.$n"; then
			f=$((f + 1))
		else
			echo "FAIL $n (did not run: no throwaway kernel reached it, or it ended during it)"
			f=$((f + 1))
		fi
	done < "$queue/list"
	passed=$((passed + p))
	failed=$((failed + f))
}

has_md_dm() {
	{ [ -e /proc/mdstat ] || [ -e /sys/module/md_mod ]; } &&
		{ [ -e /dev/mapper/control ] || grep -q device-mapper /proc/misc 2>/dev/null; }
}

case $part in
inside)
	private=
	grep -q "User Mode Linux" /proc/cpuinfo 2>/dev/null && private=1
	work_queue "$private"
	exit 0 ;;
worker)
	boot_worker
	exit 0 ;;
collect)
	collect_queue
	echo "$passed passed, $failed failed"
	[ $failed -eq 0 ]
	exit ;;
esac

if [ ! -x "$STACKBENCH_BIN" ]; then
	echo "run.sh: $STACKBENCH_BIN not found; build first (meson setup build && ninja -C build)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

if [ "$part" = all ] || [ "$part" = host ]; then
	for t in tests/integration/host/*.sh; do
		[ -e "$t" ] || continue
		n=$(basename "$t" .sh)
		[ -x "$t" ] && matches "$n" && run_one "$n" "$t" ""
	done
fi

uml=()
if [ "$part" != host ]; then
	for t in tests/integration/uml/*.sh; do
		[ -e "$t" ] || continue
		n=$(basename "$t" .sh)
		[ -x "$t" ] && matches "$n" && uml+=("$n")
	done
fi
if [ "$part" = queue ]; then
	make_queue "$queue" || { echo "run.sh: cannot make the queue in $queue" >&2; exit 1; }
	echo "run.sh: queued ${#uml[@]} throwaway-kernel tests in $queue"
	exit 0
fi
if [ ${#uml[@]} -gt 0 ]; then
	queue=$logdir/queue
	make_queue "$queue" || exit 1
	if [ "$mode" = native ] || { [ "$mode" = auto ] && has_md_dm; }; then
		private=
		grep -q "User Mode Linux" /proc/cpuinfo 2>/dev/null && private=1
		work_queue "$private"
	else
		# One kernel per core (a throwaway kernel uses one CPU), all
		# taking from the one queue.
		shards=${SB_UML_SHARDS:-$(nproc)}
		[ "$shards" -ge 1 ] 2>/dev/null || shards=1
		[ "$shards" -le ${#uml[@]} ] || shards=${#uml[@]}
		t0=$(date +%s)
		pids=()
		for ((i = 0; i < shards; i++)); do
			boot_worker > "$logdir/worker.$i" 2>&1 &
			pids+=($!)
		done
		wait "${pids[@]}"
		cat "$logdir"/worker.*
		echo "-- the throwaway kernels ran $(( $(date +%s) - t0 ))s"
		collect_queue
	fi
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
