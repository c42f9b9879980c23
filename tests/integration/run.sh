#!/bin/bash
# Integration harness. Runs every executable tests/integration/host/*.sh on
# this kernel, then every tests/integration/uml/*.sh where md and
# device-mapper exist: natively when this kernel has them, otherwise inside
# ONE boot of the throwaway user-mode-linux kernel (scripts/uml-run.sh),
# sequentially. Each test gets a private STACKBENCH_STATE_DIR and SB_TEST_DIR
# (put every file it creates there), a timeout, and a leak check afterwards:
# loop devices, md arrays, dm devices, mounts and state files it left make it
# FAIL, and are cleaned up.
#   tests/integration/run.sh [--native|--sandbox] [NAME-FILTER...]
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
inside=
results=
filters=()
while [ $# -gt 0 ]; do
	case "$1" in
	--native) mode=native ;;
	--sandbox) mode=sandbox ;;
	--inside) inside=1; results=$2; shift ;;  # internal: we are the boot's PID-1 job
	-h|--help) sed -n '2,13p' "$0"; exit 0 ;;
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

if [ -n "$inside" ]; then
	# Inside the throwaway kernel: run the uml tests given, record each.
	for n in "${filters[@]}"; do
		run_one "$n" "tests/integration/uml/$n.sh" 1
	done
	exit 0
fi

if [ ! -x "$STACKBENCH_BIN" ]; then
	echo "run.sh: $STACKBENCH_BIN not found; build first (meson setup build && ninja -C build)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

for t in tests/integration/host/*.sh; do
	[ -e "$t" ] || continue
	n=$(basename "$t" .sh)
	[ -x "$t" ] && matches "$n" && run_one "$n" "$t" ""
done

uml=()
for t in tests/integration/uml/*.sh; do
	[ -e "$t" ] || continue
	n=$(basename "$t" .sh)
	[ -x "$t" ] && matches "$n" && uml+=("$n")
done
if [ ${#uml[@]} -gt 0 ]; then
	has_md_dm=
	{ [ -e /proc/mdstat ] || [ -e /sys/module/md_mod ]; } &&
		{ [ -e /dev/mapper/control ] || grep -q device-mapper /proc/misc 2>/dev/null; } && has_md_dm=1
	if [ "$mode" = native ] || { [ "$mode" = auto ] && [ -n "$has_md_dm" ]; }; then
		private=
		grep -q "User Mode Linux" /proc/cpuinfo 2>/dev/null && private=1
		for n in "${uml[@]}"; do
			run_one "$n" "tests/integration/uml/$n.sh" "$private"
		done
	else
		# One boot per core, run side by side: a throwaway kernel uses one
		# CPU. Tests are dealt out heaviest first to the lighter shard, by
		# the runtimes measured on a quiet 2-core machine (unknown: 300 s).
		shards=${SB_UML_SHARDS:-$(nproc)}
		[ "$shards" -ge 1 ] 2>/dev/null || shards=1
		[ "$shards" -le ${#uml[@]} ] || shards=${#uml[@]}
		mapfile -t plan < <(for n in "${uml[@]}"; do
			case "$n" in
			crash_busy|crash_signals|prov_stacks) w=900 ;;
			per_layer_models) w=230 ;;
			verdict_ab) w=300 ;;
			verdict_aa) w=200 ;;
			crash_kill_steps|secrets_key) w=700 ;;
			crash_kill_luks|layers_stacks) w=550 ;;
			e2e_helios|layers_fail|safety_md_signature) w=400 ;;
			sandbox_kernel) w=100 ;;
			readme_examples) w=150 ;;
			*) w=300 ;;
			esac
			echo "$w $n"
		done | sort -rn | awk -v k="$shards" '{ best = 0; for (i = 1; i < k; i++) if (load[i] < load[best]) best = i; load[best] += $1; print best, $2 }')
		t0=$(date +%s)
		pids=()
		for ((i = 0; i < shards; i++)); do
			mine=()
			for line in "${plan[@]}"; do
				[ "${line%% *}" = "$i" ] && mine+=("${line#* }")
			done
			[ ${#mine[@]} -gt 0 ] || continue
			: > "$logdir/uml-results.$i"
			echo "-- throwaway kernel $((i + 1)) of $shards (one boot): ${mine[*]}"
			# The batch gets the sum of its per-test timeouts plus boot time.
			timeout --kill-after=30 $(( timeout_s * ${#mine[@]} + 300 )) \
				scripts/uml-run.sh -- "$root/tests/integration/run.sh" --inside "$logdir/uml-results.$i" "${mine[@]}" \
				> "$logdir/uml-console.$i" 2>&1 &
			pids+=($!)
		done
		wait "${pids[@]}"
		for ((i = 0; i < shards; i++)); do
			[ -f "$logdir/uml-console.$i" ] && { echo "-- throwaway kernel $((i + 1)):"; cat "$logdir/uml-console.$i"; }
		done
		echo "-- the throwaway kernels ran $(( $(date +%s) - t0 ))s"
		cat "$logdir"/uml-results.* > "$logdir/uml-results" 2>/dev/null
		res=$logdir/uml-results
		for n in "${uml[@]}"; do
			if grep -q "^PASS $n " "$res"; then
				passed=$((passed + 1))
			elif grep -q "^FAIL $n " "$res"; then
				failed=$((failed + 1))
			else
				echo "FAIL $n (did not run: the throwaway kernel ended before it)"
				failed=$((failed + 1))
			fi
		done
	fi
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
