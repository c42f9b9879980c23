#!/bin/sh
# Build the fuzzers (clang, ASan+UBSan) and run them: fuzz_spec for SECONDS
# (default 60) with the shipped stacks and the bad-input corpus as seeds;
# fuzz_job and fuzz_bonnie for half of it each, with tests/fuzz/seeds/<name>/,
# after replaying tests/fuzz/regress/<name>/ (inputs that once crashed them).
# Crashes land in build-fuzz/fuzz-artifacts/ and fail the run.
# usage: tests/fuzz/run.sh [SECONDS]
set -eu
secs=${1:-60}
src=$(cd "$(dirname "$0")/../.." && pwd)
bld=${SB_FUZZ_BUILD:-$src/build-fuzz}
if [ ! -f "$bld/build.ninja" ]; then
	CC=clang meson setup "$bld" "$src" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debugoptimized >/dev/null
fi
# quiet when it builds, the whole log when it does not
log=$(ninja -C "$bld" tests/fuzz/fuzz_spec tests/fuzz/fuzz_job tests/fuzz/fuzz_bonnie 2>&1) || { echo "$log" >&2; echo "fuzz: the fuzzer did not build" >&2; exit 1; }
corpus=$bld/fuzz-corpus
mkdir -p "$corpus" "$bld/fuzz-artifacts"
cp "$src"/stacks/*.yml "$src"/tests/bad/*.yml "$corpus"/
[ -d "$src/tests/fuzz/seeds" ] && cp "$src"/tests/fuzz/seeds/* "$corpus"/ 2>/dev/null || true
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
"$bld/tests/fuzz/fuzz_spec" -max_total_time="$secs" -max_len=8192 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$bld/fuzz-artifacts/" \
	-dict="$src/tests/fuzz/spec.dict" "$corpus"
for name in job bonnie; do
	c=$bld/fuzz-corpus-$name
	mkdir -p "$c"
	cp "$src/tests/fuzz/seeds/$name"/* "$c"/
	if [ -d "$src/tests/fuzz/regress/$name" ]; then
		"$bld/tests/fuzz/fuzz_$name" "$src/tests/fuzz/regress/$name"/* >/dev/null 2>&1 ||
			{ echo "fuzz: fuzz_$name fails on tests/fuzz/regress/$name again" >&2; exit 1; }
	fi
	# half the time each: together they add SECONDS to the smoke run
	"$bld/tests/fuzz/fuzz_$name" -max_total_time=$(((secs + 1) / 2)) -max_len=8192 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$bld/fuzz-artifacts/$name-" "$c"
done
