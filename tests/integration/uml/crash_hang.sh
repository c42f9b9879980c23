#!/bin/bash
# Nothing waits forever on a hung device. The loop devices' backing files
# live on an ext4 that sits on a dm-linear device the test owns; a build of
# stacks/ext4.yml (RAID1 -> ext4, mounted) is killed, then that dm device is
# suspended, so every write the stack makes hangs in the kernel. teardown
# --all must end with an error in bounded time (STACKBENCH_STEP_TIMEOUT=20 s
# per object) naming the object it gave up on, not hang; after the device is
# resumed a second teardown (which first waits for the helpers the first
# one left stuck in the kernel) leaves nothing.
# Also: the system settings stackbench could change (md resync speed limits,
# vm dirty ratios) are the same after the build and teardowns as before
# (the sources write none of them: md `sync: wait` waits at md's own speed).
#   scripts/uml-run.sh -- tests/integration/uml/crash_hang.sh
set -u
. "$(dirname "$0")/layers_lib.sh"
tmp=$(mktemp -d /tmp/sb-hang.XXXXXX)
hostdev= hostloop=
mark=$state/.paused
undo_host() {
	[ -n "$hostdev" ] && dmsetup resume sbtest-host 2>/dev/null
	umount "$tmp/host" 2>/dev/null
	[ -n "$hostdev" ] && dmsetup remove sbtest-host 2>/dev/null
	[ -n "$hostloop" ] && losetup -d "$hostloop" 2>/dev/null
	hostdev= hostloop=
}
trap 'undo_host; rm -rf "$tmp"; cleanup; exit $?' EXIT

# System settings: snapshot before.
settings() {
	cat /proc/sys/dev/raid/speed_limit_min /proc/sys/dev/raid/speed_limit_max
	cat /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_background_ratio
}
before=$(settings)

truncate -s 300M "$tmp/host.img"
hostloop=$(losetup -f --show "$tmp/host.img")
dmsetup create sbtest-host --table "0 $(blockdev --getsz "$hostloop") linear $hostloop 0" && hostdev=/dev/mapper/sbtest-host
mkfs.ext4 -q "$hostdev" && mkdir -p "$tmp/host" && mount "$hostdev" "$tmp/host" || { bad "cannot set up the host fs"; exit 1; }
sets=(--set devices.loop.size=64MiB --set devices.loop.dir="$tmp/host/work")

rm -f "$mark"
STACKBENCH_TEST_PAUSE_AT=after:mount STACKBENCH_TEST_PAUSE_MARK=$mark \
	"$SB" build "${sets[@]}" "$root/stacks/ext4.yml" > "$tmp/build.log" 2>&1 &
pid=$!
for ((i = 0; i < 3000; i++)); do [ -e "$mark" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
[ -e "$mark" ] && ok "built and mounted on loops over $hostdev" || { bad "build did not get there"; cat "$tmp/build.log"; }
kill -9 "$pid"; wait "$pid" 2>/dev/null
mnt=$(mountpoint_of ext4)
echo data > "$mnt/dirty"   # something to write back at unmount
dmsetup suspend sbtest-host && ok "$hostdev suspended: the stack's writes now hang"

t0=$(date +%s)
out=$(STACKBENCH_STEP_TIMEOUT=20 timeout -k 5 200 "$SB" teardown --all 2>&1); rc=$?
secs=$(( $(date +%s) - t0 ))
echo "$out" | sed 's/^/    | /' | tail -6
[ $rc != 0 ] && [ $rc != 124 ] && [ $rc != 137 ] && ok "teardown over a hung device failed (exit $rc) in ${secs}s" ||
	bad "teardown over a hung device: exit $rc after ${secs}s"
[ $secs -lt 150 ] && ok "bounded: ${secs}s" || bad "took ${secs}s"
grep -q "did not finish within 20 s" <<<"$out" && ok "message says what it gave up on" || bad "no timeout message"
[ -e "$state/ext4.state" ] && ok "state kept for the next teardown" || bad "state file gone"
# the helpers still stuck in the kernel may finish their removals once the
# device resumes: the next teardown must wait for them, not race them
grep -q '"pending"' "$state/ext4.state" && ok "the processes left at the hung removals are recorded" ||
	bad "no pending process recorded in the state"

dmsetup resume sbtest-host && ok "$hostdev resumed"
sleep 2
out=$(timeout -k 5 200 "$SB" teardown --all 2>&1); rc=$?
check "second teardown after resume: exit" 0 "$rc"
[ $rc = 0 ] || echo "$out" | sed 's/^/    | /'
left=$(sb_loop_leaks "$tmp/host/work"; find "$tmp/host/work" -type f 2>/dev/null)
[ -z "$left" ] && ok "no loop device or backing file left on the host fs" || { bad "left:"; echo "$left"; }
undo_host
assert_clean "hung device"

after=$(settings)
check "md speed limits and vm dirty settings unchanged" "$before" "$after"
