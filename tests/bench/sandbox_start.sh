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
# SB_START_OTHER_INIT=FILE: alternate each run with that init script (e.g.
# `git show OLD:scripts/sandbox/uml-init.sh`), and print the ratio.
set -euo pipefail
RUNS=${1:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
STACK=${2:-$root/stacks/ext4.yml}
SB=${STACKBENCH_BIN:-$root/build/stackbench}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

one() { # init-or-empty -> sets TOT and BOOT
	local t0 t1 log
	t0=$EPOCHREALTIME
	log=$(STACKBENCH_UML_INIT=$1 "$SB" -v --sandbox validate "$STACK" 2>&1 >/dev/null) ||
		{ echo "failed: $log" >&2; exit 1; }
	t1=$EPOCHREALTIME
	TOT=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	BOOT=$(sed -n 's/.*the command started in the throwaway kernel after \([0-9.]*\) s.*/\1/p' <<<"$log")
	[ -n "$BOOT" ] || { echo "no start marker in the -v log (an older stackbench?)" >&2; BOOT=0; }
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f%%", 100 * a / b }'; }

other=${SB_START_OTHER_INIT:-}
echo "sandbox start: $SB --sandbox validate $STACK, runs=$RUNS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-5s %9s %10s %6s" run total boot+init share
[ -n "$other" ] && printf " %12s %10s" "other:total" boot+init
echo
tots=() boots=() otots=()
for ((i = 1; i <= RUNS; i++)); do
	if [ -n "$other" ] && [ $((i % 2)) = 0 ]; then
		one "$other"; ot=$TOT ob=$BOOT; one ""
	else
		one ""; t=$TOT b=$BOOT
		[ -n "$other" ] && { one "$other"; ot=$TOT ob=$BOOT; }
		TOT=$t BOOT=$b
	fi
	tots+=("$TOT") boots+=("$BOOT")
	printf "%-5s %8ss %9ss %6s" "$i" "$TOT" "$BOOT" "$(pct "$BOOT" "$TOT")"
	[ -n "$other" ] && { otots+=("$ot"); printf " %11ss %9ss" "$ot" "$ob"; }
	echo
done
mt=$(median "${tots[@]}") mb=$(median "${boots[@]}")
printf "%-5s %8ss %9ss %6s" median "$mt" "$mb" "$(pct "$mb" "$mt")"
if [ -n "$other" ]; then
	mo=$(median "${otots[@]}")
	printf " %11ss   this/other %.2fx" "$mo" "$(awk -v a="$mt" -v b="$mo" 'BEGIN { print a / b }')"
fi
echo "   (target: < 4 s per sandboxed command)"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
