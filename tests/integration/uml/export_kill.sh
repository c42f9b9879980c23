#!/bin/bash
# kill -9 of stackbench while an exported stack is up, then `stackbench
# teardown --all`: no network namespace, veth, daemon (sshd, sshfs, iperf3),
# client mount, run directory (keys), md/dm/loop device or state file may be
# left. Two moments: `build` held right after the first client mount was
# recorded (its sshfs already started: STACKBENCH_TEST_PAUSE_AT=export:mount),
# and build-and-test killed while a suite runs on the client mount. Third:
# build held after the export layer (after:export) and killed, its state
# file then lost: the next build must refuse (exit 4), naming the
# namespaces, the processes in them, the client mount and the run
# directory the killed run left (the export layer's leftover check); with
# the state file back, teardown --all removes them.
#   tests/integration/run.sh export_kill
set -u
. "$(dirname "$0")/layers_lib.sh"
sb_uml_test "$0" "$@"
mark=$state/.paused
yml=$state/exk.yml
cat > "$yml" <<YML
name: exk
devices: {loop: {size: 128MiB, dir: $work}}
luks: {sector_size: 4096}
bench: {suites: [dd], size: 64MiB, per_layer: false}
export: {protocol: sshfs, link: {rate: 1gbit}}
YML
leftover_net() {
	ip netns list 2>/dev/null | grep '^sb-' | sed 's/^/netns: /'
	ip -o link show 2>/dev/null | grep -o 'sbv[0-9a-f]*[sc]' | sed 's/^/veth: /'
	pgrep -af "$state/" | sed 's/^/process: /'
	pgrep -ax iperf3 | sed 's/^/process: /'
	ls -d "$state"/export-* 2>/dev/null | sed 's/^/rundir: /'
	grep -E ' fuse\.sshfs ' /proc/self/mountinfo | sed 's/^/mount: /'
}
after_kill() { # after_kill WHAT PID
	kill -9 "$2"; wait "$2" 2>/dev/null
	teardown_check "$1"
}
teardown_check() { # teardown_check WHAT
	local out rc l
	out=$("$SB" -v teardown --all 2>&1); rc=$?
	check "$1: teardown --all exit" 0 "$rc"
	[ $rc = 0 ] || echo "$out" | sed 's/^/    | /'
	l=$(leftover_net)
	if [ -z "$l" ]; then ok "$1: no namespace, veth, daemon, client mount or run directory left"
	else bad "$1: left behind:"; echo "$l" | sed 's/^/    /'; fi
	assert_clean "$1"
}
wait_for() { # wait_for PID SECONDS TEST...: until TEST holds or PID ends
	local pid=$1 n=$(($2 * 10)) i
	shift 2
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# 1. build held after the client mount is recorded (sshd and sshfs running)
STACKBENCH_TEST_PAUSE_AT=export:mount STACKBENCH_TEST_PAUSE_MARK=$mark \
	"$SB" build "$yml" > "$state/build.log" 2>&1 &
pid=$!
if wait_for "$pid" 240 test -e "$mark"; then
	if pgrep -f "$state/export-exk/sshd_config" >/dev/null && pgrep -x sshfs >/dev/null; then
		ok "paused at export:mount with sshd and sshfs running"
	else bad "paused at export:mount, but sshd/sshfs are not running"; fi
else
	bad "build never reached export:mount"; tail -5 "$state/build.log" | sed 's/^/    | /'
fi
after_kill "build killed at export:mount" "$pid"

# 2. build-and-test killed while dd runs on the client mount
"$SB" build-and-test --results "$state/results" "$yml" > "$state/bt.log" 2>&1 &
pid=$!
if wait_for "$pid" 240 grep -q "on the client" "$state/bt.log"; then
	sleep 1
	if grep -q ' fuse\.sshfs ' /proc/self/mountinfo; then ok "benchmark running on the sshfs mount"
	else bad "no sshfs mount while the client suite runs"; fi
else
	bad "build-and-test never reached the client suite"; tail -5 "$state/bt.log" | sed 's/^/    | /'
fi
after_kill "build-and-test killed during the client benchmark" "$pid"

# 3. the state file lost after a kill -9: the leftover check names what is left
rm -f "$mark"
STACKBENCH_TEST_PAUSE_AT=after:export STACKBENCH_TEST_PAUSE_MARK=$mark \
	"$SB" build "$yml" > "$state/build3.log" 2>&1 &
pid=$!
if wait_for "$pid" 240 test -e "$mark"; then
	kill -9 "$pid"; wait "$pid" 2>/dev/null
	mv "$state/exk.state" "$work/exk.state.aside"
	out=$("$SB" build "$yml" 2>&1); rc=$?
	check "build with the killed run's leftovers and no state file: exit" 4 "$rc"
	for what in "network namespace sb-[0-9a-f]*-srv" "network namespace sb-[0-9a-f]*-cli" \
		"process [0-9]* in it" "client mount [^,]*/export-exk/mnt-sshfs" "run directory [^,]*/export-exk"; do
		if grep -q "$what" <<<"$out"; then ok "leftover check names '$what'"
		else bad "leftover check does not name '$what'"; fi
	done
	grep -q "left" <<<"$out" || echo "$out" | sed 's/^/    | /'
	[ -e "$state/exk.state" ] && bad "the refused build left a state file"
	mv "$work/exk.state.aside" "$state/exk.state"
else
	bad "build never reached after:export"; tail -5 "$state/build3.log" | sed 's/^/    | /'
	kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
fi
teardown_check "killed after the export layer, state file put back"
