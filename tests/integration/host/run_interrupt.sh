#!/bin/bash
# The run pipeline's stop flag, on this kernel (a loop -> ext4 stack needs
# neither md nor dm): the command hands it to the pipeline, SIGINT/SIGTERM
# set it, and build-and-test stops at the next boundary, tears the stack
# down, writes the results with the interruption among their errors and
# exits 130, leaving no loop device and no state file. Once during a suite
# (the pipeline's own check), once held between two layers of the build
# (the build context's check, struct sb_build_ctx), and once with `bench
# STACK` on a stack `build` left up.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test run_interrupt --root --scratch
cat > "$tmp/plain.yml" <<'EOF'
name: sb-run-interrupt
devices:
  loop: {count: 1, size: 192MiB}
fs: {type: ext4}
bench: {suites: [dd, quick], size: 48MiB, per_layer: false}
EOF
run=("$sb" --no-sandbox -v build-and-test --results "$tmp/res" --set "devices.loop.dir=$tmp/loops"
     "$tmp/plain.yml")

# 1. SIGINT while suite dd runs
if sb_start_suite dd "$tmp/suite.log" "${run[@]}"; then
	sb_signal_wait INT "$sb_bg_pid" 120; rc=$?
	[ "$sb_late" = 0 ] || bad "suite: still running 120 s after SIGINT"
	[ $rc -eq 130 ] && ok "suite: exit 130" || bad "suite: exit $rc: $(tail -3 "$tmp/suite.log")"
	grep -q "interrupted during suite dd" "$tmp/suite.log" && ok "suite: says where it stopped" ||
		bad "suite: no 'interrupted during suite dd': $(tail -3 "$tmp/suite.log")"
	grep -q "tearing down" "$tmp/suite.log" && ok "suite: tore the stack down" || bad "suite: no teardown"
	res=$(ls "$tmp"/res/sb-run-interrupt-*.json 2>/dev/null | head -1)
	if [ -n "$res" ] && python3 -c 'import sys, sbresults; e=sbresults.load(sys.argv[1]).get("errors") or []; sys.exit(not any("interrupted" in m for m in e))' "$res"; then
		ok "suite: the results file records the interruption"
	else
		bad "suite: no results file recording the interruption (${res:-none})"
	fi
	grep -q "suite quick" "$tmp/suite.log" && bad "suite: quick ran after the stop"
else
	bad "suite: dd never ran: $(tail -3 "$tmp/suite.log")"; sb_reap 9 "$sb_bg_pid"
fi
sb_nothing_left suite "$tmp/loops"

# 2. SIGTERM while the build is held right after the loop layer
if sb_start_paused "$tmp/mark" after:loop "$tmp/build.log" "${run[@]}"; then
	sb_signal_wait TERM "$sb_bg_pid" 120; rc=$?
	[ $rc -eq 130 ] && ok "build: exit 130" || bad "build: exit $rc: $(tail -3 "$tmp/build.log")"
	grep -q "interrupted before layer ext4" "$tmp/build.log" && ok "build: stopped before the next layer" ||
		bad "build: no 'interrupted before layer ext4': $(tail -3 "$tmp/build.log")"
	grep -q "suite dd" "$tmp/build.log" && bad "build: a suite ran after the stop"
else
	bad "build: never held after the loop layer: $(tail -3 "$tmp/build.log")"; sb_reap 9 "$sb_bg_pid"
fi
sb_nothing_left build "$tmp/loops"

# 3. bench STACK on a stack build left up: SIGINT in its suite, the stack stays
"$sb" --no-sandbox -q build --set "devices.loop.dir=$tmp/loops" "$tmp/plain.yml" > /dev/null 2> "$tmp/b.err" ||
	bad "build: $(tail -3 "$tmp/b.err")"
if sb_start_suite dd "$tmp/bench.log" "$sb" --no-sandbox -v bench --results "$tmp/res2" "$tmp/plain.yml"; then
	sb_signal_wait INT "$sb_bg_pid" 120; rc=$?
	[ $rc -eq 130 ] && ok "bench: exit 130" || bad "bench: exit $rc: $(tail -3 "$tmp/bench.log")"
	grep -q "interrupted during suite dd" "$tmp/bench.log" && ok "bench: says where it stopped" ||
		bad "bench: no 'interrupted during suite dd': $(tail -3 "$tmp/bench.log")"
	"$sb" status 2>/dev/null | grep -q sb-run-interrupt && ok "bench: the stack is still up" ||
		bad "bench: the stack built before is gone"
else
	bad "bench: dd never ran: $(tail -3 "$tmp/bench.log")"; sb_reap 9 "$sb_bg_pid"
fi
"$sb" -q teardown sb-run-interrupt > /dev/null 2>&1 || bad "teardown after bench failed"
sb_nothing_left bench "$tmp/loops"

sb_end
