#!/bin/bash
# How long one sandboxed command takes to start (issue 13, item 5): RUNS
# times `stackbench --sandbox validate stacks/ext4.yml` (the command itself
# takes milliseconds, so this is the throwaway kernel's boot, its init and
# its halt), printing each run, the median, and the share until the command
# started inside (kernel boot + init: stackbench -v says when the init's
# start marker arrived). Baseline (issue 13): 9.7 s, of which ~3.3 s the
# kernel's boot and the rest udev's full trigger and settle. Target: < 4 s.
# A benchmark, not a pass/fail test: on a shared machine read the spread.
#   tests/bench/sandbox_start.sh [RUNS=5] [STACK=stacks/ext4.yml]   (root)
# STACKBENCH_UML_INIT=... compares another init script (e.g. an old one).
set -euo pipefail
RUNS=${1:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
STACK=${2:-$root/stacks/ext4.yml}
SB=${STACKBENCH_BIN:-$root/build/stackbench}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "sandbox start: $SB --sandbox validate $STACK, runs=$RUNS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-5s %9s %14s %8s\n" run total "boot+init" share
tots=() boots=()
for ((i = 1; i <= RUNS; i++)); do
	t0=$EPOCHREALTIME
	log=$("$SB" -v --sandbox validate "$STACK" 2>&1 >/dev/null) || { echo "run $i failed: $log" >&2; exit 1; }
	t1=$EPOCHREALTIME
	tot=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	boot=$(sed -n 's/.*the command started in the throwaway kernel after \([0-9.]*\) s.*/\1/p' <<<"$log")
	[ -n "$boot" ] || { echo "run $i: no start marker in the -v log (an older stackbench?)" >&2; boot=0; }
	tots+=("$tot") boots+=("$boot")
	printf "%-5s %8ss %13ss %7.0f%%\n" "$i" "$tot" "$boot" "$(awk -v a="$boot" -v b="$tot" 'BEGIN { print 100 * a / b }')"
done
mt=$(median "${tots[@]}") mb=$(median "${boots[@]}")
printf "%-5s %8ss %13ss %7.0f%%   (target: < 4 s per sandboxed command)\n" median "$mt" "$mb" \
	"$(awk -v a="$mb" -v b="$mt" 'BEGIN { print 100 * a / b }')"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
