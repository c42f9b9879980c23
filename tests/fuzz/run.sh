#!/bin/sh
# Build every libFuzzer harness tests/fuzz/fuzz_<name>.c (clang, ASan+UBSan)
# and run each in turn for its share of SECONDS (default 60): first the
# crashing inputs kept in tests/fuzz/regress/<name>/ (replayed every run),
# then fuzzing from tests/fuzz/seeds/<name>/ plus the extra seed sources
# named below. A crash in any fails the run; its input lands in
# build-fuzz/fuzz-artifacts/<name>/: keep it in tests/fuzz/regress/<name>/
# once fixed.
# usage: tests/fuzz/run.sh [SECONDS]
set -eu
secs=${1:-60}
src=$(cd "$(dirname "$0")/../.." && pwd)
bld=${SB_FUZZ_BUILD:-$src/build-fuzz}
if [ ! -f "$bld/build.ninja" ]; then
	CC=clang meson setup "$bld" "$src" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debugoptimized >/dev/null
fi
names=$(cd "$src/tests/fuzz" && ls fuzz_*.c | sed 's/\.c$//')
n=$(echo "$names" | wc -w)
each=$((secs / n)); [ "$each" -ge 5 ] || each=5
targets=$(for h in $names; do printf 'tests/fuzz/%s ' "$h"; done)
# quiet when it builds, the whole log when it does not
log=$(ninja -C "$bld" $targets 2>&1) || { echo "$log" >&2; echo "fuzz: a fuzzer did not build" >&2; exit 1; }

# extra seeds and options of a harness (beyond tests/fuzz/seeds/<name>/)
extra_seeds() {
	case $1 in
	fuzz_spec) echo "$src/stacks/*.yml $src/tests/bad/*.yml" ;;
	fuzz_results) echo "$src/tests/golden/results/*.json $src/tests/golden/rep/*.json" ;;
	esac
}
opts() {
	case $1 in
	fuzz_spec) echo "-max_len=8192 -dict=$src/tests/fuzz/spec.dict" ;;
	fuzz_results) echo "-max_len=16384" ;;
	fuzz_job|fuzz_bonnie) echo "-max_len=8192" ;;
	esac
}

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
export LSAN_OPTIONS=suppressions=$src/tests/fuzz/lsan.supp
rc=0
for h in $names; do
	name=${h#fuzz_}
	corpus=$bld/fuzz-corpus/$name
	art=$bld/fuzz-artifacts/$name
	mkdir -p "$corpus" "$art"
	for f in $(extra_seeds "$h") "$src/tests/fuzz/seeds/$name"/*; do
		[ -f "$f" ] && cp "$f" "$corpus"/
	done
	if ls "$src/tests/fuzz/regress/$name"/* >/dev/null 2>&1; then
		echo "== $h: replaying tests/fuzz/regress/$name/"
		"$bld/tests/fuzz/$h" -runs=1 $(opts "$h") "$src/tests/fuzz/regress/$name"/* >"$art/replay.log" 2>&1 ||
			{ tail -40 "$art/replay.log" >&2; echo "fuzz: $h: a kept crashing input crashes again" >&2; rc=1; continue; }
	fi
	echo "== $h: fuzzing for $each s"
	"$bld/tests/fuzz/$h" -max_total_time="$each" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$art/" $(opts "$h") "$corpus" >"$art/fuzz.log" 2>&1 ||
		{ tail -60 "$art/fuzz.log" >&2; echo "fuzz: $h found a crash (input in $art/)" >&2; rc=1; continue; }
	grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$art/fuzz.log" | tail -1
done
exit $rc
