#!/bin/bash
# kill -9 of `stackbench build` at every build step in turn, then
# `stackbench teardown --all`: nothing may be left (md array, dm device,
# LV/VG/PV, loop device, mount, backing file, /dev/mapper or /dev/md or
# /dev/VG link, state file). The build is held at an exact step by the
# STACKBENCH_TEST_PAUSE_AT hook (src/core/state.c): "LAYER:KIND" = object
# recorded but not yet created, "LAYER:KIND:extra" = just created,
# "after:LAYER" = layer done. Before each kill the test checks that the
# step really was reached (the objects made so far exist). Last case:
# build-and-test killed while its benchmark suite runs.
# This file runs the lvm stack's steps; crash_kill_luks.sh the LUKS steps
# and the benchmark (SB_CRASH_SET=all: everything, plus the points where an
# object is recorded but not yet created).
#   scripts/uml-run.sh -- tests/integration/uml/crash_kill_steps.sh [POINT...]
set -u
. "$(dirname "$0")/layers_lib.sh"
crash_vars

# More than layers_lib's list: a stale VG directory, and udev-made links.
more_leftovers() {
	ls -d /dev/sb_* 2>/dev/null | sed 's/^/dev-vg: /'
	ls /dev/disk/by-id 2>/dev/null | grep -E '^(dm-name-sb|md-name-.*sb-)' | sed 's/^/by-id: /'
}

# kill_at FILE POINT PROBE: build FILE paused at POINT, check PROBE (shell
# code that must succeed at that step), kill -9, teardown --all, check clean.
kill_at() {
	local file=$1 point=$2 probe=$3 rc
	if ! sb_start_paused "$mark" "$point" "$state/.build.log" "$SB" -vv build "${sets[@]}" "$file"; then
		bad "$point: build never reached the step"; sed 's/^/    | /' "$state/.build.log" | tail -5
		sb_reap 9 "$sb_bg_pid" 2>/dev/null
	else
		if bash -c "$probe" >/dev/null 2>&1; then ok "$point: reached (probe: $probe)"
		else bad "$point: paused, but the probe failed: $probe"; fi
		sb_reap 9 "$sb_bg_pid"; rc=$?
		check "$point: build killed" 137 "$rc"
	fi
	teardown_clean "$point"
}

# teardown_clean WHAT: teardown --all succeeds and leaves nothing behind.
teardown_clean() {
	local out rc l
	out=$("$SB" -v teardown --all 2>&1); rc=$?
	if [ $rc = 0 ]; then ok "$1: teardown --all exit 0"
	else bad "$1: teardown --all exit $rc"; echo "$out" | sed 's/^/    | /'; fi
	assert_clean "$1"
	l=$(more_leftovers)
	[ -z "$l" ] || { bad "$1: stale links:"; echo "$l" | sed 's/^/    /'; }
}

vg=/dev/sb_vg0
# SB_CRASH_SET: lvm (default: this file) or luks (crash_kill_luks.sh), so
# that each half stays well inside the harness's per-test timeout; "all"
# runs both plus the "recorded, not yet created" points.
set_=${SB_CRASH_SET:-lvm}
cases=()
if [ "$set_" = lvm ] || [ "$set_" = all ]; then
	[ "$set_" = all ] && cases+=("$lvmf|loop:loopdev|ls $work/omv-ext4-lvm/d0" "$lvmf|md:md|losetup -a | grep -q $work" "$lvmf|lvm:pv|grep -q ^md /proc/mdstat")
	cases+=(
	"$lvmf|after:loop|losetup -a | grep -q $work"
	"$lvmf|md:md:extra|grep -q ^md /proc/mdstat"
	"$lvmf|lvm:vg|lvm pvs --noheadings -o pv_name | grep -q md"
	"$lvmf|lvm:lv|lvm vgs sb_vg0"
	"$lvmf|after:lvm|lvm lvs sb_vg0/sb_data"
	"$lvmf|after:ext4|blkid -o value -s TYPE $vg/sb_data | grep -qx ext4"
	"$lvmf|after:mount|grep -q ' $state/' /proc/self/mountinfo"
	)
fi
if [ "$set_" = luks ] || [ "$set_" = all ]; then
	[ "$set_" = all ] && cases+=("$luksf|luks:dm|grep -q ^md /proc/mdstat")
	cases+=(
	"$luksf|luks:dm:extra|cryptsetup isLuks /dev/md/sb-luks4096"
	"$luksf|luks:key|test -b /dev/mapper/sb-luks4096-crypt"
	"$luksf|after:mount|grep -q ' $state/' /proc/self/mountinfo"
	"$root/stacks/integrity.yml|after:integrity|test -b /dev/mapper/sb-integrity-integrity-1"
	)
fi
t0=$(date +%s)
for c in "${cases[@]}"; do
	IFS='|' read -r file point probe <<<"$c"
	if [ $# -gt 0 ] && [[ " $* " != *" $point "* ]]; then continue; fi
	echo "# kill -9 at $point ($(basename "$file"))"
	t1=$(date +%s)
	kill_at "$file" "$point" "$probe"
	echo "  ($(( $(date +%s) - t1 ))s)"
done

# Mid-benchmark: build-and-test killed while its suite runs.
if { [ $# = 0 ] && [ "$set_" != lvm ]; } || [[ " $* " == *" bench "* ]]; then
	echo "# kill -9 of build-and-test during its benchmark"
	if bench_start; then
		ok "bench: killed while the suite runs"
	else
		bad "bench: the suite was not running at the kill"; tail -5 "$state/.bat.log" | sed 's/^/    | /'
	fi
	sb_reap 9 "$sb_bg_pid"; rc=$?
	check "bench: build-and-test killed" 137 "$rc"
	[ -e "$state/luks4096.state" ] && ok "bench: state file left for the teardown" || bad "bench: no state file after kill"
	teardown_clean "bench"
	rm -rf "$res"
fi
echo "crash_kill_steps: $(( $(date +%s) - t0 ))s"
