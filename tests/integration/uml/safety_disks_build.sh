#!/bin/bash
# A `disks:` stack built end to end, with loop devices standing in for the
# disks (issue 12): first refused because the disks carry signatures at
# BOTH ends (an ext4 superblock and a LUKS header at the start, md 1.0 and
# 0.90 superblocks at the end, an LVM PV label), then `build --wipe
# --destroy-data` erases every one of them (libblkid's wiper; checked with
# wipefs and mdadm --examine afterwards: nothing old is left, not even at
# the end the new md 1.2 array never writes), builds RAID1 -> ext4 ->
# mount, and `teardown` removes it all.
#   scripts/uml-run.sh -- tests/integration/uml/safety_disks_build.sh
set -u
. "$(dirname "$0")/layers_lib.sh"
for t in mdadm cryptsetup wipefs mkfs.ext4 pvcreate; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
img=$(mktemp -d /run/sb-disks-build.XXXXXX)
byid=$(mktemp -d /dev/sb-disks-build.XXXXXX)
loops=()
more_cleanup() {
	local l
	for a in /dev/md12[0-9]; do [ -e "$a" ] && mdadm --stop "$a" >/dev/null 2>&1; done
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$img" "$byid"
}
trap 'cleanup; r=$?; more_cleanup; exit $r' EXIT

new_disk() {
	truncate -s 80M "$img/$1.img"
	losetup -f --show "$img/$1.img"
}
stop_md() {
	mdadm --stop "$1" >/dev/null 2>&1
	udevadm settle -t 10 2>/dev/null
	for a in /dev/md12[0-9] /dev/md/*; do [ -e "$a" ] && mdadm --stop "$a" >/dev/null 2>&1; done
	udevadm settle -t 10 2>/dev/null
}

D0=$(new_disk d0); loops+=("$D0")
D1=$(new_disk d1); loops+=("$D1")
D2=$(new_disk d2); loops+=("$D2")
D3=$(new_disk d3); loops+=("$D3")
echo "# disks $D0 $D1 (RAID1 stack), $D2 (single-disk stack), $D3 (helper)"
# at the start: ext4 on D0, LUKS on D1 (first: mke2fs zeroes the end of
# the device, where md 1.0 and 0.90 keep their superblocks)
mkfs.ext4 -q -F -F "$D0"
head -c 32 /dev/urandom | cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
	--pbkdf-force-iterations 1000 --key-file - "$D1"
# md 1.0 keeps its superblock at the END of D0 and D1, 0.90 at the end of D2
mdadm --create /dev/md120 --run --quiet --level=1 --raid-devices=2 --metadata=1.0 \
	--assume-clean --bitmap=none "$D0" "$D1" && stop_md /dev/md120
# (the LVM PV label at the start of D2 first: lvm will not label an md member)
mkdir -p /run/lock/lvm
pvcreate -q -y --config 'devices { use_devicesfile=0 }' "$D2" >/dev/null
mdadm --create /dev/md121 --run --quiet --level=1 --raid-devices=2 --metadata=0.90 \
	--assume-clean --bitmap=none "$D2" "$D3" && stop_md /dev/md121
for d in "$D0:1.0:ext4" "$D1:1.0:crypto_LUKS" "$D2:0.90:LVM2_member"; do
	IFS=: read -r dev ver sig <<<"$d"
	found=$(wipefs -n "$dev" 2>/dev/null | awk 'NR > 1 {print $3 "@" $2}' | tr '\n' ' ')
	if mdadm --examine "$dev" 2>/dev/null | grep -q "Version : $ver" && grep -q "$sig" <<<"$found"; then
		ok "$dev before: md $ver at the end and $sig ($found)"
	else
		bad "$dev before: wanted md $ver and $sig, found: $found"
	fi
done
ln -s "$D0" "$byid/disk0"
ln -s "$D1" "$byid/disk1"
ln -s "$D2" "$byid/disk2"
printf 'name: diskraid\ndevices:\n  disks: [%s, %s]\nraid: {level: 1}\nfs: {mount_options: noatime}\n' \
	"$byid/disk0" "$byid/disk1" >"$img/raid.yml"
printf 'name: diskone\ndevices:\n  disks: [%s]\nfs: {mount_options: noatime}\n' "$byid/disk2" >"$img/one.yml"

out=$("$SB" build --destroy-data="$byid/disk0,$byid/disk1" "$img/raid.yml" 2>&1); rc=$?
[ $rc = 5 ] && grep -q "pass --wipe" <<<"$out" && ok "signatures without --wipe: refused, exit 5" ||
	bad "without --wipe: exit $rc: $out"
[ -n "$(wipefs -n "$D0")" ] && ok "refusal wrote nothing" || bad "the refusal erased $D0"

out=$("$SB" build --wipe --destroy-data="$byid/disk0,$byid/disk1" "$img/raid.yml" 2>&1); rc=$?
check "build --wipe of the RAID1 disks: stack" 0 "$rc"
[ $rc = 0 ] || echo "$out" | tail -5 | sed 's/^/    | /'
grep -q "erased the linux_raid_member signature" <<<"$out" && ok "it erased the md superblocks" ||
	bad "no md erase reported: $out"
md=$(ls /sys/block/"$(basename "$D0")"/holders 2>/dev/null | head -n1)
[ -n "$md" ] && mdadm --detail "/dev/$md" | grep -q "Version : 1.2" && ok "RAID1 ($md, metadata 1.2) on the disks" ||
	bad "no md 1.2 array on $D0"
# what the new array does not write: the end of the disks (1.2 is at 4 KiB)
for d in "$D0" "$D1"; do
	if tail -c 1M "$(losetup -n -O BACK-FILE "$d")" | grep -qa $'\xfc\x4e\x2b\xa9'; then
		bad "$d: an md superblock magic is still in its last MiB"
	else
		ok "$d: nothing of the old md 1.0 superblock at the end"
	fi
done
uuid=$(grep -o 'uuid=[0-9a-f-]*' "$STACKBENCH_STATE_DIR/diskraid.state" | head -1)
want=$(blkid -p -o value -s UUID "$D0")
[ -n "$want" ] && [ "$uuid" = "uuid=$want" ] && ok "the state records the array's UUID ($want)" ||
	bad "the state records '$uuid', the member says '$want'"
check "teardown of the RAID1 disks: stack" 0 "$("$SB" teardown diskraid >/dev/null 2>&1; echo $?)"
for d in "$D0" "$D1"; do
	mdadm --examine "$d" >/dev/null 2>&1 && bad "$d: teardown left its md superblock" ||
		ok "$d: teardown zeroed its md superblock"
done

out=$("$SB" build --wipe --destroy-data="$byid/disk2" "$img/one.yml" 2>&1); rc=$?
check "build --wipe of the single-disk stack (LVM label + md 0.90 at the end)" 0 "$rc"
[ $rc = 0 ] || echo "$out" | tail -5 | sed 's/^/    | /'
if mdadm --examine "$D2" 2>/dev/null | grep -q "Version : 0.90"; then
	bad "$D2: the md 0.90 superblock survived"
else
	ok "$D2: the md 0.90 superblock is gone"
fi
[ "$(blkid -p -o value -s TYPE "$D2")" = ext4 ] && ok "$D2 now carries only the new ext4" ||
	bad "$D2: $(wipefs -n "$D2")"
check "teardown of the single-disk stack" 0 "$("$SB" teardown diskone >/dev/null 2>&1; echo $?)"
assert_clean "disks: stacks"
