#!/bin/bash
# SIGINT and SIGTERM during `build` stop at the next step boundary and roll
# back: exit 130, nothing left. The build is held at an exact step by the
# STACKBENCH_TEST_PAUSE_AT hook; the signal ends the hold, the step in
# progress completes, the stop flag is seen at the next boundary. Then
# SIGINT during build-and-test's benchmark: the suite ends, the stack is torn
# down, the exit status is non-zero, nothing is left, no state file.
#   scripts/uml-run.sh -- tests/integration/uml/crash_signals.sh
set -u
. "$(dirname "$0")/layers_lib.sh"
crash_vars

signal_at() { # SIG FILE POINT
	local sig=$1 file=$2 point=$3 rc t0 secs
	echo "# SIG$sig at $point ($(basename "$file"))"
	if ! sb_start_paused "$mark" "$point" "$state/.build.log" "$SB" -v build "${sets[@]}" "$file"; then
		bad "$point: build never reached the step"; sb_reap 9 "$sb_bg_pid"; return
	fi
	t0=$(date +%s)
	# bounded: the rollback of a small stack takes seconds, not minutes
	sb_signal_wait "$sig" "$sb_bg_pid" 120; rc=$?
	[ "$sb_late" = 1 ] && bad "$point: still running 120 s after SIG$sig"
	secs=$(( $(date +%s) - t0 ))
	sed 's/^/    | /' "$state/.build.log" | tail -4
	check "SIG$sig at $point: exit status" 130 "$rc"
	grep -q "interrupted" "$state/.build.log" && ok "SIG$sig at $point: says interrupted (${secs}s)" ||
		bad "SIG$sig at $point: no 'interrupted' message"
	assert_clean "SIG$sig at $point"
}

signal_at INT "$lvmf" after:loop
signal_at INT "$lvmf" lvm:lv
signal_at TERM "$lvmf" after:ext4
signal_at TERM "$luksf" luks:dm:extra
signal_at INT "$luksf" luks:key
signal_at INT "$luksf" after:mount

echo "# SIGINT during build-and-test's benchmark"
if bench_start; then
	ok "bench: SIGINT while the suite runs"
else
	bad "bench: the suite was not running at the signal"
fi
t0=$(date +%s)
sb_signal_wait INT "$sb_bg_pid" 180; rc=$?
[ "$sb_late" = 1 ] && bad "bench: still running 180 s after SIGINT"
secs=$(( $(date +%s) - t0 ))
tail -5 "$state/.bat.log" | sed 's/^/    | /'
[ "$rc" != 0 ] && ok "bench: exit status $rc (non-zero) ${secs}s after SIGINT" || bad "bench: exit status 0 after SIGINT"
grep -q "tearing down" "$state/.bat.log" && ok "bench: it tore the stack down" || bad "bench: no teardown in the log"
assert_clean "bench SIGINT"
rm -rf "$res"
