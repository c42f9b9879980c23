#!/bin/bash
# md / lvm / luks layers when things go wrong or differ from the defaults:
#  - a LUKS cipher the kernel lacks: the build fails at the luks layer and
#    rolls back md and loop completely;
#  - a LUKS sector size smaller than the device's: refused or rolled back;
#  - `raid.sync: wait`: the build waits for the initial resync;
#  - teardown while a process holds the dm-crypt device: bounded wait, then
#    a message naming the process; a second teardown after it let go works;
#  - teardown of a suspended dm-crypt device;
#  - a VG named like ours that already exists is refused, and left alone.
#   scripts/uml-run.sh -- tests/integration/uml/layers_fail.sh
set -u
. "$(dirname "$0")/layers_lib.sh"

# SB_LAYERS_CASES=136 runs only cases 1, 3 and 6
cases=${SB_LAYERS_CASES:-123456}
want() { [[ $cases == *$1* ]]; }
sets=(--set devices.loop.size="$SIZE" --set devices.loop.dir="$work")

# 1. cipher the kernel does not have
if want 1; then

out=$("$SB" build "${sets[@]}" --set luks.cipher=nosuch-xts-plain64 "$root/stacks/luks512.yml" 2>&1)
rc=$?
echo "$out" | tail -3
if [ $rc != 0 ] && grep -q "layer luks" <<<"$out"; then ok "unknown cipher: build fails at the luks layer (exit $rc)"; else bad "unknown cipher: exit $rc, no luks error"; fi
assert_clean "unknown cipher rollback"
fi

# 2. LUKS sectors smaller than the device's logical sector (4Kn loop devices)
if want 2; then

out=$("$SB" build "${sets[@]}" --set devices.loop.sector_size=4096 --set luks.sector_size=512 "$root/stacks/luks512.yml" 2>&1)
rc=$?
echo "$out" | tail -3
if [ $rc != 0 ]; then ok "luks 512 on 4096-byte device: refused (exit $rc)"; else bad "luks 512 on 4096-byte device: built"; "$SB" teardown luks512; fi
assert_clean "sector size rollback"
fi

# 3. sync: wait
if want 3; then

out=$("$SB" build --set devices.loop.size=64MiB --set devices.loop.dir="$work" --set raid.sync=wait "$root/stacks/raid10-near2.yml" 2>&1)
rc=$?
echo "$out" | tail -3
if [ $rc = 0 ]; then
	k=$(basename "$(readlink -f /dev/md/sb-raid10-near2)")
	check "sync wait: sync_action after build" "idle" "$(cat /sys/block/$k/md/sync_action)"
	check "sync wait: resync reported" "yes" "$(grep -q 'resync finished' <<<"$out" && echo yes)"
	check "sync wait: not degraded" "0" "$(cat /sys/block/$k/md/degraded)"
	"$SB" teardown raid10-near2 || bad "sync wait: teardown"
else
	bad "sync wait: build failed (exit $rc)"
fi
assert_clean "sync wait"
fi

# 4. a process holds the dm-crypt device during teardown
if want 4; then

if "$SB" build "${sets[@]}" "$root/stacks/luks4096.yml"; then
	mnt=$(mountpoint_of luks4096)
	umount "$mnt"   # the mount layer's teardown must cope with an unmounted mount
	sleep 1000 < /dev/mapper/sb-luks4096-crypt &
	holder=$!
	start=$(date +%s)
	out=$("$SB" teardown luks4096 2>&1)
	rc=$?
	took=$(( $(date +%s) - start ))
	echo "$out" | tail -3
	if [ $rc != 0 ] && grep -q "process $holder (sleep)" <<<"$out"; then ok "busy teardown names the holder (exit $rc, ${took}s)"; else bad "busy teardown: exit $rc, holder $holder not named"; fi
	[ $took -le 120 ] && ok "busy teardown bounded (${took}s)" || bad "busy teardown took ${took}s"
	kill $holder; wait $holder 2>/dev/null
	if "$SB" teardown luks4096; then ok "teardown after the holder left"; else bad "second teardown failed"; fi
else
	bad "luks4096: build failed"
fi
assert_clean "busy teardown"
fi

# 5. suspended dm-crypt device
if want 5; then

if "$SB" build "${sets[@]}" "$root/stacks/luks4096.yml"; then
	umount "$(mountpoint_of luks4096)"
	dmsetup suspend sb-luks4096-crypt
	check "suspended before teardown" "SUSPENDED" "$(dmsetup info -c --noheadings -o attr sb-luks4096-crypt | grep -q s && echo SUSPENDED)"
	if timeout 120 "$SB" teardown luks4096; then ok "teardown of a suspended dm-crypt device"; else bad "teardown of a suspended device failed"; fi
else
	bad "luks4096: build failed"
fi
assert_clean "suspended teardown"
fi

# 6. a VG with our name exists already (someone else's): refused, untouched
if want 6; then

truncate -s 64M "$work/foreign.img"
fl=$(losetup -f --show "$work/foreign.img")
lvm vgcreate -q sb_vg0 "$fl" >/dev/null
out=$("$SB" build "${sets[@]}" "$root/stacks/omv-ext4-lvm.yml" 2>&1)
rc=$?
echo "$out" | tail -2
if [ $rc != 0 ] && grep -q "sb_vg0 already exists" <<<"$out"; then ok "existing VG sb_vg0: refused (exit $rc)"; else bad "existing VG: exit $rc"; fi
check "foreign VG untouched" "sb_vg0" "$(lvm vgs --noheadings -o vg_name sb_vg0 2>/dev/null | tr -d ' ')"
lvm vgremove -q -f sb_vg0 >/dev/null; lvm pvremove -q -f "$fl" >/dev/null; losetup -d "$fl"; rm -f "$work/foreign.img"
assert_clean "existing VG"
fi
