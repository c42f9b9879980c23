#!/bin/bash
# Real-disk safety checks on THIS kernel, against loop devices made to look
# used: with ext4, with a partition table, mounted, a mounted partition, held
# open with O_EXCL, plus the disk holding /, a partition, a missing path, a
# regular file, and --destroy-data lists that name the wrong set. Drives
# sb_safety_check_disks through tests/tools/safety_probe. Needs root.
# Only loop devices this script attaches are written to; the root disk is only
# looked at (the check refuses it before opening it).
#   tests/integration/host/safety_disks.sh        (SB_BUILD_DIR=build by default)
set -u
. "$(dirname "$0")/../lib.sh"
sb_test safety-host --root --scratch --tap
build=${SB_BUILD_DIR:-$src/build}
probe=$build/tests/tools/safety_probe
hold=$build/tests/tools/hold_excl
for t in "$probe" "$hold"; do
	[ -x "$t" ] || { echo "FAIL: $t not built (meson setup build && ninja -C build)"; exit 1; }
done
for t in losetup mkfs.ext4 mount umount findmnt; do
	command -v "$t" >/dev/null || sb_skip "$t not installed"
done
holder_pid=

# at exit, before sb_test unmounts, detaches and checks for leaks under
# $tmp (other test runs attach and detach loop devices in parallel: only
# what THIS script made counts): the holder process
# shellcheck disable=SC2317  # runs from the EXIT trap
sb_cleanup_hook() {
	if [ -n "$holder_pid" ]; then
		kill "$holder_pid" 2>/dev/null
		wait "$holder_pid" 2>/dev/null
		kill -0 "$holder_pid" 2>/dev/null && sb_fail "leaked process: hold_excl $holder_pid"
	fi
	[ -n "${byid:-}" ] && rm -rf "$byid"
}

# check DESCRIPTION WANT WORD [--stdin TEXT] -- PROBE-ARGS...
#   WANT: OK, or the errno name the refusal must carry (EBUSY, EEXIST, ...);
#   WORD: text the message must contain (case-insensitive), "" for OK.
#   --as-nobody runs the probe as uid/gid 65534.
check() {
	local desc=$1 want=$2 word=$3 input="" stdin=0 out rc pre=()
	shift 3
	if [ "$1" = --stdin ]; then input=$2; stdin=1; shift 2; fi
	if [ "$1" = --as-nobody ]; then pre=(setpriv --reuid=65534 --regid=65534 --clear-groups); shift; fi
	[ "$1" = -- ] && shift
	if [ $stdin = 1 ]; then
		out=$(printf '%s\n' "$input" | "${pre[@]}" "$probe" --interactive "$@" 2>"$tmp/msg")
	else
		out=$("${pre[@]}" "$probe" "$@" 2>"$tmp/msg" </dev/null)
	fi
	rc=$?
	sb_probe_verdict "$desc" "$want" "$word" "$rc" "$out" "$tmp/msg"
}

# new_loop NAME [losetup options]: a 32 MiB sparse file on a loop device.
# Retries: a parallel run may grab the same free device between the lookup
# and the attach.
new_loop() {
	local f=$tmp/$1.img dev
	shift
	[ -e "$f" ] || truncate -s 32M "$f"
	for _ in 1 2 3 4 5; do
		dev=$(losetup -f --show "$@" "$f" 2>/dev/null) && { echo "$dev"; return 0; }
		sleep 0.2
	done
	echo "FAIL: cannot attach a loop device to $f" >&2
	return 1
}

# One primary Linux partition from sector 2048 to the end (an MBR written
# by hand: no sfdisk needed).
write_mbr() {
	local f=$1 sectors
	sectors=$(($(stat -c %s "$f") / 512))
	le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
	# shellcheck disable=SC2059
	printf "\x00\xfe\xff\xff\x83\xfe\xff\xff$(le32 2048)$(le32 $((sectors - 2048)))" |
		dd of="$f" bs=1 seek=446 conv=notrunc status=none
	printf '\x55\xaa' | dd of="$f" bs=1 seek=510 conv=notrunc status=none
}

# wait_part LOOP: its first partition's node. Kernels built without
# partition table parsers (this host's: no CONFIG_MSDOS_PARTITION) do not scan
# the table on losetup -P, so then partx adds the partition with BLKPG.
wait_part() {
	for _ in $(seq 1 10); do
		[ -b "${1}p1" ] && return 0
		sleep 0.1
	done
	partx -a "$1" || return 1
	wait_node "${1}p1"
}

wait_node() {
	for _ in $(seq 1 50); do
		[ -b "$1" ] && return 0
		sleep 0.1
	done
	echo "FAIL: $1 did not appear" >&2
	return 1
}

set -e
A=$(new_loop clean-a)
G=$(new_loop clean-g)
truncate -s 32M "$tmp/ext4.img"
mkfs.ext4 -q -F "$tmp/ext4.img"
B=$(new_loop ext4)
truncate -s 32M "$tmp/wipe.img"
mkfs.ext4 -q -F "$tmp/wipe.img"
W=$(new_loop wipe)
truncate -s 32M "$tmp/pt.img"
write_mbr "$tmp/pt.img"
C=$(new_loop pt -P)
wait_part "$C"
truncate -s 32M "$tmp/mounted.img"
mkfs.ext4 -q -F "$tmp/mounted.img"
D=$(new_loop mounted)
mkdir "$tmp/mnt-d"
mount -t ext4 "$D" "$tmp/mnt-d"
truncate -s 32M "$tmp/mpart.img"
write_mbr "$tmp/mpart.img"
E=$(new_loop mpart -P)
wait_part "$E"
mkfs.ext4 -q -F "${E}p1"
mkdir "$tmp/mnt-e"
mount -t ext4 "${E}p1" "$tmp/mnt-e"
F=$(new_loop held)
# Two signatures: ext4, then a LUKS magic over its first bytes (libblkid's
# safe probe reports only the LUKS one; the message must list both).
truncate -s 32M "$tmp/two.img"
mkfs.ext4 -q -F "$tmp/two.img"
printf 'LUKS\xba\xbe\x00\x01' | dd of="$tmp/two.img" bs=1 conv=notrunc status=none
H=$(new_loop two)
# by-id style links live where only root can write (the checks refuse a
# way through /tmp); a second one in /tmp must be refused.
byid=$(mktemp -d /run/sb-safety-byid.XXXXXX)
ln -s "$A" "$byid/fake-disk-A"
mkdir "$tmp/by-id"
ln -s "$A" "$tmp/by-id/planted-A"
set +e

echo "# loops: clean $A $G, ext4 $B, partitioned $C, mounted $D, mounted partition ${E}p1, held $F"

check "clean loop passes with --destroy-data" OK "" -- --destroy-data="$A" "$A"
check "clean loop without consent, non-interactive: refused, says --destroy-data" EREFUSED "--destroy-data=" -- "$A"
check "typed 'destroy 1 disk' confirms" OK "" --stdin "destroy 1 disk" -- "$A"
check "typed disk name confirms" OK "" --stdin "$(basename "$A")" -- "$A"
check "typed 'yes' is declined" EREFUSED "not confirmed" --stdin "yes" -- "$A"
check "empty answer is declined" EREFUSED "not confirmed" --stdin "" -- "$A"
check "by-id style symlink resolves to the node" OK "" -- --destroy-data="$A" "$byid/fake-disk-A"

check "a link planted in /tmp is refused, though it leads to a clean disk" EREFUSED "passes /tmp, which others can write to" -- --destroy-data="$A" "$tmp/by-id/planted-A"

check "ext4 signature refused" EREFUSED "ext4" -- --destroy-data="$B" "$B"
check "partition table refused" EREFUSED "partition table" -- --destroy-data="$C" "$C"
check "two signatures: refused, both listed" EREFUSED "crypto_LUKS at offset 0, ext4 at offset 1080" -- --destroy-data="$H" "$H"
check "a partition is not a whole disk" EREFUSED "partition of $C" -- --wipe --destroy-data="${C}p1" "${C}p1"
# --wipe erases (libblkid's wiper) and then the probe must be clean
check "ext4 signature accepted with --wipe" OK "" -- --wipe --destroy-data="$W" "$W"
if [ -z "$(blkid -p -o value -s TYPE "$W")" ] && [ -z "$(wipefs -n "$W" 2>/dev/null)" ]; then
	ok "--wipe left no signature on $W"
else
	bad "--wipe left a signature on $W: $(wipefs -n "$W")"
fi
check "--wipe without consent erases nothing" EREFUSED "--destroy-data=" -- --wipe "$B"
check "partition table accepted with --wipe" OK "" -- --wipe --destroy-data="$C" "$C"
if [ -z "$(wipefs -n "$C" 2>/dev/null)" ]; then
	ok "--wipe erased the partition table of $C"
else
	bad "--wipe left $(wipefs -n "$C")"
fi

check "mounted loop refused as mounted" EREFUSED "mounted at $tmp/mnt-d" -- --wipe --destroy-data="$D" "$D"
check "loop with a mounted partition refused" EREFUSED "partition $(basename "$E")p1 is mounted" -- --wipe --destroy-data="$E" "$E"

"$hold" "$F" >"$tmp/hold.out" 2>&1 &
holder_pid=$!
for _ in $(seq 1 50); do grep -q ready "$tmp/hold.out" && break; sleep 0.1; done
check "loop held open with O_EXCL refused as busy" EREFUSED "exclusively" -- --destroy-data="$F" "$F"
kill "$holder_pid"
wait "$holder_pid" 2>/dev/null
holder_pid=
check "same loop passes once released" OK "" -- --destroy-data="$F" "$F"
# A plain (not O_EXCL) open, as a VM's raw disk or a running dd has it:
# O_EXCL does not see it, the /proc/*/fd scan does and names the process.
# shellcheck disable=SC2217  # the redirect is the point: a plain open of the disk
sleep 600 <"$F" &
holder_pid=$!
sleep 0.3
check "loop held open by an ordinary process refused, naming it" EREFUSED "pid $holder_pid (sleep)" -- --destroy-data="$F" "$F"
kill "$holder_pid"
wait "$holder_pid" 2>/dev/null
holder_pid=

# The disk holding /: whole disk under the root filesystem's device.
rootmm=$(findmnt -n -o MAJ:MIN / | tr -d " ")
rootdisk=
if [ -n "$rootmm" ] && [ "${rootmm%%:*}" != 0 ] && [ -e "/sys/dev/block/$rootmm" ]; then
	sys=$(readlink -f "/sys/dev/block/$rootmm")
	# Down through dm/md to the first slave, then from a partition to its disk.
	while [ -d "$sys/slaves" ] && [ -n "$(ls "$sys/slaves")" ]; do
		sys=$(readlink -f "$sys/slaves/$(ls "$sys/slaves" | head -n1)")
	done
	[ -e "$sys/partition" ] && sys=$(dirname "$sys")
	[ -b "/dev/$(basename "$sys")" ] && rootdisk=/dev/$(basename "$sys")
fi
if [ -n "$rootdisk" ]; then
	check "the disk holding / ($rootdisk) is refused" EREFUSED "holds the system's / filesystem" -- --wipe --destroy-data="$rootdisk" "$rootdisk"
else
	ok "# SKIP root disk: / is not on a block device here ($rootmm)"
fi

if command -v setpriv >/dev/null; then
	check "without root: refused with a permission error" EACCES "needs root" --as-nobody -- --destroy-data="$A" "$A"
fi
check "missing path refused" ENOENT "does not exist" -- --destroy-data=/dev/disk/by-id/sb-no-such-disk /dev/disk/by-id/sb-no-such-disk
check "regular file refused" EREFUSED "regular file" -- --wipe --destroy-data="$tmp/clean-a.img" "$tmp/clean-a.img"
check "character device refused" EREFUSED "character device" -- --wipe /dev/null

check "two clean loops, both named" OK "" -- --destroy-data="$G,$A" "$A" "$G"
check "two clean loops, named by kernel name" OK "" -- --destroy-data="$(basename "$A") $(basename "$G")" "$A" "$G"
check "--destroy-data missing one disk" EREFUSED "$(basename "$G") is not named" -- --destroy-data="$A" "$A" "$G"
check "--destroy-data naming an extra disk" EREFUSED "'$B' is not one of" -- --destroy-data="$A,$G,$B" "$A" "$G"
check "--destroy-data naming a different disk" EREFUSED "is not named" -- --destroy-data="$A,$B" "$A" "$G"
check "typed 'destroy 2 disks' confirms two" OK "" --stdin "destroy 2 disks" -- "$A" "$G"
check "typed 'destroy 1 disk' does not confirm two" EREFUSED "not confirmed" --stdin "destroy 1 disk" -- "$A" "$G"
check "the same disk twice is refused" EREFUSED "same device" -- --destroy-data="$A" "$A" "$byid/fake-disk-A"
check "one bad disk among good ones stops the run, naming it" EREFUSED "disk $B" -- --destroy-data="$A,$B" "$A" "$B"

# The checks only read: the signatures they refused on are still there.
if blkid -p -o value -s TYPE "$B" | grep -qx ext4; then
	ok "ext4 signature on $B untouched by the checks"
else
	bad "ext4 signature on $B is gone"
fi

sb_end
