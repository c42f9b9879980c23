#!/bin/bash
# README command 2 (and what .ci/run calls): install packages, build, and run
# every test: the meson test suites (unit, ...), the unit suite again under
# AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/), the fuzz smoke
# test when there is one, and the integration suite (tests/integration/run.sh,
# partly inside the throwaway kernel) and the Helios4 relations benchmark
# (tests/bench/helios_relations.sh). Each meson test and each integration
# script counts as one. The last line printed is "N passed, N failed";
# the exit status is non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
passed=0
failed=0
summary=()

note() { summary+=("$(printf '%-28s %s' "$1" "$2")"); }
finish() {
	echo
	echo "== summary"
	printf '  %s\n' "${summary[@]}"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# meson_tests LABEL BUILDDIR [meson test args]: run, count from testlog.json.
meson_tests() {
	local label=$1 dir=$2 p f
	shift 2
	echo "== $label"
	rm -f "$dir/meson-logs/testlog.json"
	meson test -C "$dir" --print-errorlogs "$@"
	if [ ! -s "$dir/meson-logs/testlog.json" ]; then
		echo "$label: meson test produced no results"
		failed=$((failed + 1))
		note "$label" "no results"
		return
	fi
	p=$(python3 scripts/testlog-count.py "$dir/meson-logs/testlog.json")
	f=${p#* }
	p=${p% *}
	passed=$((passed + p))
	failed=$((failed + f))
	note "$label" "$p passed, $f failed"
}

# count_line LABEL FILE: add FILE's last "N passed, N failed" line; removes FILE.
count_line() {
	local line
	line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
	rm -f "$2"
	if [[ "$line" =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
		note "$1" "${BASH_REMATCH[1]} passed, ${BASH_REMATCH[2]} failed"
	else
		failed=$((failed + 1))
		note "$1" "no result line"
	fi
}

echo "== dependencies"
if ! scripts/install-deps.sh; then
	failed=$((failed + 1))
	note "install-deps" "FAILED"
	finish
fi

echo "== build"
if { [ -f build/build.ninja ] || meson setup build; } && ninja -C build; then
	note "build" "ok"
else
	failed=$((failed + 1))
	note "build" "FAILED"
	finish
fi

meson_tests "meson tests" build

echo "== build (ASan+UBSan)"
if { [ -f build-asan/build.ninja ] ||
     meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false; } &&
   ninja -C build-asan; then
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
		meson_tests "unit (ASan+UBSan)" build-asan --suite unit
else
	failed=$((failed + 1))
	note "build (ASan+UBSan)" "FAILED"
fi

# The ARM builds: armhf and arm64 cross-built, their unit suites under
# qemu-user, compare of the shipped results diffed against amd64's
# (scripts/cross-test.sh; about 1 minute with its builds up to date).
echo "== cross (armhf, arm64)"
out=$(mktemp /tmp/sb-cross.XXXXXX)
scripts/cross-test.sh 2>&1 | tee "$out"
count_line "cross (armhf, arm64)" "$out"

if [ -x tests/fuzz/run.sh ]; then
	echo "== fuzz (every tests/fuzz/fuzz_*.c harness, 120 s in all)"
	if tests/fuzz/run.sh 120; then
		passed=$((passed + 1)); note "fuzz smoke" "passed"
	else
		failed=$((failed + 1)); note "fuzz smoke" "FAILED"
	fi
fi

# issue 23: every program src/ execs and the tests and scripts run comes
# from a package scripts/install-deps.sh installs (derived from the code;
# a missing or unlisted one is named). Before the suites that run them.
echo "== programs and their packages"
if tests/tools/program_packages.py; then
	passed=$((passed + 1)); note "program packages" "passed"
else
	failed=$((failed + 1)); note "program packages" "FAILED"
fi

# The long part, two jobs at a time (one per core): the relations the
# Helios4 write-ups show (tests/bench/helios_relations.sh, one throwaway
# kernel; its sizes are the issue's, see its header) beside the host
# integration tests (tests/integration/host/, this kernel); whichever ends
# first boots a throwaway kernel that takes the uml tests off one shared
# queue (heaviest first), and the other joins when it ends.
# SB_HELIOS_RESULTS=DIR keeps the relations' results files (docs/helios4.md
# is made from them).
echo "== relations benchmark, host integration, throwaway-kernel tests (two at a time)"
queue=$(mktemp -d /tmp/sb-queue.XXXXXX)
rel=$(mktemp /tmp/sb-relations.XXXXXX)
tests/integration/run.sh --queue "$queue"
t0=$(date +%s)
(
	tests/bench/helios_relations.sh ${SB_HELIOS_RESULTS:+"$SB_HELIOS_RESULTS"} > "$rel" 2>&1
	echo "relations exit $? after $(( $(date +%s) - t0 ))s" >> "$rel"
	tests/integration/run.sh --worker "$queue" > "$queue/worker.relations" 2>&1
) &
side=$!
echo "== integration (host; the relations benchmark runs beside it)"
out=$(mktemp /tmp/sb-integration.XXXXXX)
tests/integration/run.sh --host-only 2>&1 | tee "$out"
count_line "integration (host)" "$out"
echo "-- host tests done after $(( $(date +%s) - t0 ))s; joining the throwaway-kernel queue"
tests/integration/run.sh --worker "$queue" > "$queue/worker.host" 2>&1
wait "$side"
echo "== relations benchmark"
cat "$rel"
if tail -n 1 "$rel" | grep -q '^relations exit 0 '; then
	passed=$((passed + 1)); note "helios relations" "passed"
else
	failed=$((failed + 1)); note "helios relations" "FAILED"
fi
rm -f "$rel"
echo "== integration (throwaway kernels)"
cat "$queue"/worker.*
out=$(mktemp /tmp/sb-integration.XXXXXX)
tests/integration/run.sh --collect "$queue" 2>&1 | tee "$out"
count_line "integration (throwaway kernels)" "$out"
echo "-- the long part took $(( $(date +%s) - t0 ))s"
rm -rf "$queue"
# tests/bench/fio-compare.sh (the fio ratios) is a benchmark: run it by hand
# on a quiet machine (tests/bench/README.md); CI asserts nothing timed.
finish
