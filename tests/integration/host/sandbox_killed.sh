#!/bin/bash
# A sandboxed build-and-test killed with SIGKILL leaves nothing on the host:
# at three points (boot, mid-build, mid-benchmark) the host-side stackbench
# is killed; its guardian kills the throwaway kernel and removes the temp
# dir, the member files and the run record. Once (mid-build) the guardian
# is killed too, as a crash of both would: then the next start finds the
# record, kills what is left, removes the files and says what it removed.
# Before those, kills in the run's first moments (the record written, a
# member file being prepared): the guardian cleans those too.
# This host kernel has no md, so luks512 sandboxes automatically.
set -uo pipefail
root=${SB_ROOT:?run me through tests/integration/run.sh}
bin=${STACKBENCH_BIN:?}
dir=${SB_TEST_DIR:?}
export TMPDIR=$dir/tmp
export STACKBENCH_UML_MEM=512M
export STACKBENCH_SANDBOX_RECORDS=$dir/records
mkdir -p "$TMPDIR" "$dir/loops"
errors=0
fail() { echo "FAIL: $*"; errors=$((errors + 1)); }
if grep -qs md_mod /proc/modules || [ -e /proc/mdstat ]; then
	echo "skip: this kernel has md; the sandbox is not used here"
	exit 0
fi
sets=(--set devices.loop.size=128MiB --set "devices.loop.dir=$dir/loops" --set bench.size=32MiB
      --set 'bench.suites=[dd]')

start() {  # start LOG: a run in the background; sets $pid
	"$bin" -v build-and-test --results "$dir/results" "${sets[@]}" "$root/stacks/luks512.yml" \
		> "$1.out" 2> "$1.err" &
	pid=$!
}
wait_for() {  # wait_for LOG PATTERN: until the run logs PATTERN (bounded)
	local i
	for ((i = 0; i < 1200; i++)); do
		grep -q "$2" "$1.err" 2>/dev/null && return 0
		kill -0 $pid 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
record_field() {  # record_field NAME: from the run's record
	awk -v k="$1" '$1 == k { print $2 }' "$STACKBENCH_SANDBOX_RECORDS/$pid.run" 2>/dev/null
}
# What a run can leave: UML processes of its umid, its record, temp dir, member dir.
left() {
	local p
	p=$(pgrep -f "umid=sb-$1( |$)" || true)
	[ -z "$p" ] || echo "UML processes of run $1: $p"
	ls "$STACKBENCH_SANDBOX_RECORDS"/*.run 2>/dev/null
	ls -d "$TMPDIR"/sb-uml.* "$dir/loops"/.sb-sandbox-* 2>/dev/null
	ls -A "$dir/loops" | grep -v '^\.sb-sandbox-' || true
}
nothing_left() {  # nothing_left RUN-PID WHEN: within 20 s
	local i out
	for ((i = 0; i < 200; i++)); do
		out=$(left "$1")
		[ -z "$out" ] && return 0
		sleep 0.1
	done
	fail "$2: left behind: $out"
}

# 0. Killed in its first moments, before the kernel: the guardian is up
# before the temp dir or any member file exists, so it cleans these too.
# At the test hook's points (the record written and nothing created yet;
# member file ubd0 allocated, not yet written) and as soon as the run says
# it prepares the member files (no hook, right away).
early_kill() {  # early_kill POINT|"" NAME
	local mark=$dir/mark.$2 guard i reached
	rm -f "$mark"
	STACKBENCH_TEST_PAUSE_AT=$1 STACKBENCH_TEST_PAUSE_MARK=$mark start "$dir/$2"
	for ((i = 0; i < 600; i++)); do
		if [ -n "$1" ]; then [ -e "$mark" ] && break
		else grep -q "preparing .* member files" "$dir/$2.err" 2>/dev/null && break; fi
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	guard=$(record_field guard)
	[ $i -lt 600 ] && [ -e "$STACKBENCH_SANDBOX_RECORDS/$pid.run" ]
	reached=$?
	kill -9 $pid
	wait $pid 2>/dev/null
	[ $reached -eq 0 ] ||
		{ fail "$2: the run did not get there: $(tail -3 "$dir/$2.err")"; nothing_left $pid "$2"; return; }
	[ -n "$guard" ] && [ "$guard" != 0 ] || fail "$2: no guardian recorded yet"
	nothing_left $pid "killed at $2"
	for ((i = 0; i < 100; i++)); do
		{ [ -z "$guard" ] || ! kill -0 "$guard" 2>/dev/null; } && break
		sleep 0.1
	done
	[ $i -lt 100 ] || fail "$2: the guardian (pid $guard) is still running 10 s after"
	rm -f "$mark"
	echo "killed at $2: nothing left, no guardian"
}
early_kill sandbox:recorded recorded
early_kill sandbox:member member
early_kill "" preparing

# 1. Killed while the kernel boots: right after it is recorded as running.
start "$dir/boot"
for ((i = 0; i < 600; i++)); do
	[ -n "$(record_field pgid)" ] && [ "$(record_field pgid)" != 0 ] && break
	sleep 0.05
done
[ -n "$(record_field pgid)" ] || fail "boot: the run recorded no kernel: $(cat "$dir/boot.err")"
grep -q "building layer" "$dir/boot.err" && echo "note: the build had started already"
kill -9 $pid
wait $pid 2>/dev/null
nothing_left $pid "killed at boot"
echo "killed at boot: nothing left"

# 2. Killed mid-build, its guardian too: the record stays for the next start.
start "$dir/build"
wait_for "$dir/build" "building layer md" || fail "mid-build: the build did not start: $(tail -5 "$dir/build.err")"
guard=$(record_field guard)
dead=$pid
kill -9 $pid $guard
wait $pid 2>/dev/null
sleep 1
[ -e "$STACKBENCH_SANDBOX_RECORDS/$dead.run" ] || fail "mid-build: the record of the killed run is gone, nothing tests the reap"
members=$(awk '$1 == "members" { print $2 }' "$STACKBENCH_SANDBOX_RECORDS/$dead.run")
[ -n "$members" ] && [ -e "$members/ubd0" ] || fail "mid-build: no member files were recorded ($members)"
echo "killed mid-build with its guardian: left $(left $dead | wc -l) things for the next start"

# 3. The next start reaps them (and says what) and is killed mid-benchmark.
start "$dir/bench"
wait_for "$dir/bench" "suite dd" || fail "mid-benchmark: the benchmark did not start: $(tail -5 "$dir/bench.err")"
grep -q "an earlier run (pid $dead) was killed; removed what it left: .*the member files in $members" \
	"$dir/bench.err" || fail "the next start did not say what it removed: $(grep -i sandbox "$dir/bench.err")"
grep "an earlier run" "$dir/bench.err" | sed 's/^/  /'
nothing_left $dead "the earlier run (mid-build) after the reap"
kill -9 $pid
wait $pid 2>/dev/null
nothing_left $pid "killed mid-benchmark"
echo "killed mid-benchmark: nothing left"

# 4. A run after all that works and leaves nothing either.
start "$dir/after"
wait $pid
rc=$?
[ $rc -eq 0 ] || fail "the run after the kills: exit $rc: $(tail -5 "$dir/after.err")"
grep -q "an earlier run" "$dir/after.err" && fail "a run found leftovers although the guardians had cleaned: $(grep "an earlier run" "$dir/after.err")"
nothing_left $pid "a normal run"
echo "a normal run afterwards: exit $rc, nothing left"

# 5. Its results name both machines: the outer host's CPU model and kernel
# (inside, /proc/cpuinfo says only "UML"), and the device path in words.
res=$(ls -t "$dir"/results/luks512-*.json 2>/dev/null | head -1)
model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
if [ -z "$res" ]; then
	fail "no results file"
else
	python3 - "$res" "$model" "$(uname -r)" "$(nproc)" <<'PY' || fail "results host fields (above)"
import json, sys
h = json.load(open(sys.argv[1]))["host"]
o = h.get("outer") or {}
bad = []
if o.get("cpu_model") != sys.argv[2]: bad.append("outer cpu_model %r, expected %r" % (o.get("cpu_model"), sys.argv[2]))
if o.get("kernel") != sys.argv[3]: bad.append("outer kernel %r, expected %r" % (o.get("kernel"), sys.argv[3]))
if o.get("cores") != int(sys.argv[4]): bad.append("outer cores %r" % o.get("cores"))
if not o.get("ram_bytes"): bad.append("no outer ram_bytes")
if not h.get("sandbox") or h.get("kernel") == sys.argv[3]: bad.append("the sandbox's own kernel is not recorded")
if "UML block devices (ubd)" not in h.get("device_path", ""): bad.append("device_path %r" % h.get("device_path"))
# the guest's free memory was touched once before the first stack (src/sandbox/guest.c)
w = h.get("guest_memory_warmed") or {}
if not (0.5 * h.get("ram_bytes", 0) < w.get("bytes", 0) <= h.get("ram_bytes", 0)):
    bad.append("guest_memory_warmed %r against the kernel's %r bytes" % (w, h.get("ram_bytes")))
if not w.get("seconds", 0) > 0: bad.append("guest_memory_warmed has no time: %r" % w)
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
	echo "results: host.outer names $model, $(uname -r); device path: ubd; the guest memory warmed"
fi
exit $((errors > 0))
