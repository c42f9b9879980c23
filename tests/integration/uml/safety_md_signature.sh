#!/bin/bash
# Real-disk safety checks that need md and device-mapper, so they run inside
# the throwaway user-mode-linux kernel (the script re-runs itself there via
# scripts/uml-run.sh): loop devices carrying a stopped md array's superblock,
# a LUKS header or an LVM PV label are refused as holding a signature (and
# accepted with --wipe); a member of a running md array, the backing device
# of an open dm-crypt mapping and an active swap device are refused as busy;
# an md array and a dm device are refused as not whole disks.
#   tests/integration/uml/safety_md_signature.sh     (SB_BUILD_DIR=build by default)
set -u
# shellcheck disable=SC2317  # leaks and cleanup run from the EXIT trap
src=$(cd "$(dirname "$0")/../../.." && pwd)
export SB_BUILD_DIR=${SB_BUILD_DIR:-$src/build}
. "$src/tests/integration/lib.sh"
sb_test safety-md --uml --tap -- "$@"   # outside the throwaway kernel: boots one, runs there
probe=$SB_BUILD_DIR/tests/tools/safety_probe
[ -x "$probe" ] || { echo "FAIL: $probe not built (meson setup build && ninja -C build)"; exit 1; }
[ -e /proc/mdstat ] || modprobe raid1 2>/dev/null
[ -e /proc/mdstat ] || { echo "FAIL: no md support in this kernel"; exit 1; }
for t in mdadm cryptsetup losetup mkswap swapon; do
	command -v "$t" >/dev/null || sb_skip "$t not installed"
done

# tmpfs, not the shared host filesystem: backing files stay in this kernel
# (so not sb_test's --scratch, and a leak check of its own).
tmp=$(mktemp -d /run/sb-safety-uml.XXXXXX)
# Numbered nodes: named ones (/dev/md/NAME) make mdadm wait for udev links.
md_sig=/dev/md100
md_run=/dev/md101
crypt=sb-safety-crypt

our_loops() {
	local f
	for f in "$tmp"/*.img; do
		[ -e "$f" ] && losetup -j "$f" | cut -d: -f1
	done
}

# md arrays that have one of our loops as a member (udev's incremental
# assembly may have made some of its own).
our_arrays() {
	local l h
	for l in $(our_loops); do
		for h in /sys/block/"$(basename "$l")"/holders/md*; do
			[ -e "$h" ] && echo "/dev/$(basename "$h")"
		done
	done | sort -u
}

leaks() {
	local a
	our_loops | sed 's/^/leaked loop: /'
	[ -e "/dev/mapper/$crypt" ] && echo "leaked dm device: $crypt"
	grep -F "$tmp" /proc/swaps | sed 's/^/leaked swap: /'
	for a in "$md_sig" "$md_run"; do
		grep -q "^$(basename "$a") " /proc/mdstat && echo "leaked md array: $a"
	done
}

# run by sb_test's EXIT trap
sb_cleanup_hook() {
	local a l left
	for l in $(our_loops); do swapoff "$l" 2>/dev/null; done
	[ -e "/dev/mapper/$crypt" ] && cryptsetup close "$crypt"
	for _ in 1 2 3; do
		for a in $(our_arrays); do mdadm --stop "$a" >/dev/null 2>&1; done
		udevadm settle --timeout=10 2>/dev/null
	done
	for l in $(our_loops); do losetup -d "$l"; done
	udevadm settle --timeout=10 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		left=$(leaks)
		[ -z "$left" ] && break
		sleep 0.3
	done
	[ -z "$left" ] || { sb_fail "cleanup left objects behind:"; echo "$left"; }
	rm -rf "$tmp"
}
check() {
	local desc=$1 want=$2 word=$3 out rc
	shift 3
	out=$("$probe" "$@" 2>"$tmp/msg" </dev/null)
	rc=$?
	sb_probe_verdict "$desc" "$want" "$word" "$rc" "$out" "$tmp/msg"
}

new_loop() {
	local f=$tmp/$1.img
	truncate -s 40M "$f"
	losetup -f --show "$f"
}

# After mdadm --stop, udev's incremental assembly (64-md-raid-assembly.rules)
# may grab the members again; stop whatever it made until it settles.
settle_stopped() {
	local a
	for _ in 1 2 3 4 5; do
		udevadm settle --timeout=10 2>/dev/null
		[ -z "$(our_arrays)" ] && return 0
		for a in $(our_arrays); do mdadm --stop "$a" >/dev/null 2>&1; done
	done
	echo "FAIL: md arrays keep coming back on our loops: $(our_arrays)" >&2
	return 1
}

set -e
M1=$(new_loop md-a)
M2=$(new_loop md-b)
R1=$(new_loop run-a)
R2=$(new_loop run-b)
K=$(new_loop luks)
S=$(new_loop swap)
V=$(new_loop pv)
echo "# stopped md members $M1 $M2, running md members $R1 $R2, LUKS $K, swap $S, PV $V"

mdadm --create "$md_sig" --run --quiet --level=1 --raid-devices=2 --metadata=1.2 \
	--assume-clean --bitmap=none "$M1" "$M2"
mdadm --stop "$md_sig" >/dev/null 2>&1
settle_stopped
mdadm --create "$md_run" --run --quiet --level=1 --raid-devices=2 --metadata=1.2 \
	--assume-clean --bitmap=none "$R1" "$R2"
set +e

check "md superblock (stopped array) refused" EREFUSED "linux_raid_member" --destroy-data="$M1" "$M1"
check "md superblock accepted with --wipe" OK "" --wipe --destroy-data="$M1" "$M1"
# --wipe really erased it (issue 12, finding 7): no md superblock is left
if mdadm --examine "$M1" >/dev/null 2>&1 || [ -n "$(wipefs -n "$M1" 2>/dev/null)" ]; then
	bad "--wipe left a signature on $M1: $(wipefs -n "$M1")"
else
	ok "--wipe erased the md superblock of $M1"
fi
check "both stopped members, the first wiped: the second one is named" EREFUSED "disk $M2" --destroy-data="$M1,$M2" "$M1" "$M2"

run_md=$(readlink -f "$md_run")
check "member of a running md array refused as busy" EREFUSED "in use by $(basename "$run_md")" --wipe --destroy-data="$R1" "$R1"
check "the md array itself is not a whole disk" EREFUSED "md RAID array" --wipe --destroy-data="$run_md" "$run_md"

luks_ok=1
# Keys come from a pipe: never a file, argv or the environment.
head -c 32 /dev/urandom | cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
	--pbkdf-force-iterations 1000 --key-file - "$K" || luks_ok=0
if [ $luks_ok = 1 ]; then
	check "LUKS header refused" EREFUSED "crypto_LUKS" --destroy-data="$K" "$K"
	check "LUKS header accepted with --wipe" OK "" --wipe --destroy-data="$K" "$K"
	# Reformat with a key we keep in a shell variable (never written), then open.
	key=$(head -c 24 /dev/urandom | base64)
	printf '%s' "$key" | cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
		--pbkdf-force-iterations 1000 --key-file - "$K" &&
		printf '%s' "$key" | cryptsetup open --key-file - "$K" "$crypt"
	unset key
	if [ -e "/dev/mapper/$crypt" ]; then
		check "backing device of an open dm-crypt mapping refused as busy" EREFUSED "[$crypt]" --wipe --destroy-data="$K" "$K"
		check "a dm device is not a whole disk" EREFUSED "device-mapper device ($crypt)" --wipe --destroy-data="/dev/mapper/$crypt" "/dev/mapper/$crypt"
		cryptsetup close "$crypt"
	else
		bad "cryptsetup open failed"
	fi
else
	bad "cryptsetup luksFormat failed"
fi

mkswap -q "$S" >/dev/null
check "swap signature refused" EREFUSED "swap" --destroy-data="$S" "$S"
if swapon "$S"; then
	check "active swap device refused as busy" EREFUSED "in use as swap" --wipe --destroy-data="$S" "$S"
	swapoff "$S"
else
	bad "swapon $S failed"
fi

if command -v pvcreate >/dev/null; then
	mkdir -p /run/lock/lvm
	if pvcreate -q --config 'devices { use_devicesfile = 0 }' "$V" >/dev/null 2>&1; then
		check "LVM PV label refused" EREFUSED "LVM2_member" --destroy-data="$V" "$V"
	else
		bad "pvcreate $V failed"
	fi
fi

sb_end
