# Shared by layers_*.sh (sourced, not run): a private state dir and work dir,
# the leak check, expectations read from a stack file, and a trap that tears
# down whatever a failed test left and FAILS the test if anything leaked.
# Runs as root inside the throwaway kernel (scripts/uml-run.sh), where the
# only block devices are the ones the test makes.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
. "$root/tests/integration/lib.sh"
SIZE=${SB_LAYERS_LOOP_SIZE:-128MiB}
fails=0
passes=0

[ "$(id -u)" = 0 ] || { echo "layers: must run as root (inside scripts/uml-run.sh)"; exit 1; }
[ -x "$SB" ] || { echo "layers: $SB not built"; exit 1; }
state=$(mktemp -d /tmp/sb-layers-state.XXXXXX)
work=$(mktemp -d /var/tmp/sb-layers-work.XXXXXX)
export STACKBENCH_STATE_DIR=$state

ok() { passes=$((passes + 1)); echo "ok   - $*"; }
bad() { fails=$((fails + 1)); echo "FAIL - $*"; }
check() { # check DESCRIPTION EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then ok "$1 = $3"; else bad "$1: expected '$2', got '$3'"; fi
}

# Everything a stack could leave behind, one line per leftover.
leftovers() {
	grep -E '^md[0-9]+' /proc/mdstat | sed 's/^/mdstat: /'
	ls /sys/block | grep -E '^(dm-|md)' | sed 's/^/block: /'
	sb_loops_backed_by "$work" | sed 's/^/loop: /'
	grep -F " $state/" /proc/self/mountinfo | sed 's/^/mount: /'
	grep -F " $work/" /proc/self/mountinfo | sed 's/^/mount: /'
	lvm pvs --noheadings -o pv_name 2>/dev/null | sed 's/^ */pv: /'
	lvm vgs --noheadings -o vg_name 2>/dev/null | sed 's/^ */vg: /'
	ls /dev/mapper 2>/dev/null | grep -v '^control$' | sed 's/^/dev-mapper: /'
	ls /dev/md 2>/dev/null | sed 's/^/dev-md: /'
	find "$work" -mindepth 1 2>/dev/null | sed 's/^/file: /'
	ls "$state"/*.state 2>/dev/null | sed 's/^/state: /'
}

assert_clean() { # assert_clean WHAT
	local l
	udevadm settle -t 10 2>/dev/null
	l=$(leftovers)
	if [ -z "$l" ]; then ok "$1: nothing left"; else bad "$1: left behind:"; echo "$l" | sed 's/^/    /'; fi
}

cleanup() {
	local s l
	for s in "$state"/*.state; do
		[ -e "$s" ] || continue
		s=$(basename "$s" .state)
		echo "cleanup: tearing down $s"
		"$SB" teardown "$s" || true
	done
	udevadm settle -t 10 2>/dev/null
	l=$(leftovers)
	if [ -n "$l" ]; then
		bad "leak check at exit:"; echo "$l" | sed 's/^/    /'
		# last resort so the throwaway kernel halts clean; still a failure
		umount -l $(grep -F " $state/" /proc/self/mountinfo | awk '{print $5}') 2>/dev/null
		for d in /dev/mapper/sb-*; do [ -e "$d" ] && dmsetup remove -f "$(basename "$d")"; done 2>/dev/null
		lvm vgremove -f $(lvm vgs --noheadings -o vg_name 2>/dev/null | grep sb_) 2>/dev/null
		mdadm --stop --scan 2>/dev/null
		sb_loop_detach $(sb_loops_backed_by "$work" | cut -d' ' -f1)
	fi
	rm -rf "$state" "$work"
	echo "layers: $passes passed, $fails failed"
	[ "$fails" = 0 ]
}
trap 'cleanup; exit $?' EXIT

# Mount point of a built stack, from its state file.
mountpoint_of() {
	python3 - "$state/$1.state" <<'PY'
import json, sys
for o in json.load(open(sys.argv[1])).get('objects', []):
    if o.get('layer') == 'mount' and o.get('kind') == 'mount':
        print(o['id'])
PY
}

# crash_vars: what the crash_*.sh tests share: small loops in the private
# work dir (sets), the pause mark, and the two stacks they interrupt.
crash_vars() {
	SIZE=${SB_CRASH_LOOP_SIZE:-96MiB}
	sets=(--set devices.loop.size="$SIZE" --set devices.loop.dir="$work")
	mark=$state/.paused
	lvmf=$root/stacks/omv-ext4-lvm.yml
	luksf=$root/stacks/luks4096.yml
}

# build_kill FILE POINT: build FILE paused at POINT, then kill -9 it;
# 0 if it got there (after crash_vars).
build_kill() {
	local reached
	sb_start_paused "$mark" "$2" "$state/.build.log" "$SB" build "${sets[@]}" "$1"
	reached=$?
	sb_reap 9 "$sb_bg_pid" 2>/dev/null
	return $reached
}

# bench_start: res, a fresh results dir, and build-and-test of luksf with a
# 32 MiB bonnie suite started in the background (sb_start_suite, the log in
# $state/.bat.log): 0 once the suite runs (after crash_vars).
bench_start() {
	res=$(mktemp -d /tmp/sb-crash-res.XXXXXX)
	sb_start_suite bonnie "$state/.bat.log" "$SB" -v build-and-test "${sets[@]}" \
		--set bench.suites=[bonnie] --set bench.size=32MiB --results "$res" "$luksf"
}
