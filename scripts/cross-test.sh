#!/bin/bash
# The ARM builds (scripts/test.sh's "cross (armhf, arm64)" section): for
# armhf (the Helios4) and arm64, cross-build with Debian's multiarch
# toolchain (cross/ARCH.ini), run the whole unit suite under qemu-user
# (meson's exe_wrapper), and diff `compare` of the shipped results
# (tests/golden/results, tests/golden/rep) in every format against the amd64
# binary in build/. Each unit test and each arch x format diff counts as
# one. Needs build/ (amd64) built and scripts/install-deps.sh's cross
# packages. Last line: "N passed, N failed".
#   scripts/cross-test.sh [ARCH...]    (default: armhf arm64)
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(armhf arm64)
formats=(text markdown csv json bonnie-csv html fio-matrix)
results=(tests/golden/results/*.json tests/golden/rep/*.json)
tmp=$(mktemp -d /tmp/sb-cross.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the amd64 reference: output, messages and exit status of each format
for f in "${formats[@]}"; do
	build/stackbench compare --format "$f" "${results[@]}" >"$tmp/amd64.$f" 2>&1
	echo "exit $?" >>"$tmp/amd64.$f"
done

for a in "${archs[@]}"; do
	case $a in
	armhf) qemu=qemu-arm ;;
	arm64) qemu=qemu-aarch64 ;;
	*) echo "cross: unknown architecture $a (armhf, arm64)"; failed=$((failed + 1)); continue ;;
	esac
	echo "== cross $a: build (cross/$a.ini)"
	if ! { [ -f "build-$a/build.ninja" ] || meson setup "build-$a" --cross-file "cross/$a.ini"; } ||
	   ! ninja -C "build-$a"; then
		echo "cross $a: build FAILED"
		failed=$((failed + 1))
		continue
	fi
	echo "== cross $a: unit suite under $qemu"
	rm -f "build-$a/meson-logs/testlog.json"
	meson test -C "build-$a" --suite unit --print-errorlogs --num-processes 2
	if [ -s "build-$a/meson-logs/testlog.json" ]; then
		read -r p f < <(python3 scripts/testlog-count.py "build-$a/meson-logs/testlog.json")
		passed=$((passed + p))
		failed=$((failed + f))
	else
		echo "cross $a: the unit suite produced no results"
		failed=$((failed + 1))
	fi
	echo "== cross $a: compare of the shipped results, every format, against amd64"
	for f in "${formats[@]}"; do
		"$qemu" "build-$a/stackbench" compare --format "$f" "${results[@]}" >"$tmp/$a.$f" 2>&1
		echo "exit $?" >>"$tmp/$a.$f"
		if cmp -s "$tmp/amd64.$f" "$tmp/$a.$f"; then
			echo "  $f: identical ($(wc -c <"$tmp/$a.$f") bytes)"
			passed=$((passed + 1))
		else
			echo "  $f: DIFFERS from amd64:"
			diff "$tmp/amd64.$f" "$tmp/$a.$f" | head -n 20
			failed=$((failed + 1))
		fi
	done
done
echo "cross: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
