#!/bin/bash
# Inside the throwaway kernel (or any kernel with md and device-mapper):
# md RAID1 and RAID10 on loop devices, dm-crypt through cryptsetup with a key
# that lives only on /run's tmpfs, dm-flakey and dm-delay tables load, and
# teardown leaves nothing. Files go to $SB_TEST_DIR (set by the harness).
set -euo pipefail
dir=${SB_TEST_DIR:?run me through tests/integration/run.sh}
keydir=$(mktemp -d /run/sb-key.XXXXXX)
loops=()
fail() { echo "FAIL: $*" >&2; exit 1; }
# udev's probes hold a new device open for a moment: settle, then retry.
dm_remove() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		udevadm settle --timeout=10 2>/dev/null
		dmsetup remove "$1" 2>/dev/null && return 0
		sleep 0.5
	done
	dmsetup remove "$1"
}
# Stop an array and wipe its members' superblocks, or udev's incremental
# assembly puts it back together at once.
md_stop() {
	local md=$1
	shift
	udevadm settle --timeout=10 2>/dev/null
	mdadm --stop "$md" >/dev/null 2>&1 || return 1
	for l in "$@"; do mdadm --zero-superblock "$l" 2>/dev/null || true; done
	udevadm settle --timeout=10 2>/dev/null
	return 0
}

cleanup() {
	set +e
	umount "$dir/mnt" 2>/dev/null
	for m in sbt-crypt sbt-flakey sbt-delay; do
		[ -e /dev/mapper/$m ] && dm_remove "$m"
	done
	for md in /dev/md/sbt-r1 /dev/md/sbt-r10 /dev/md127 /dev/md126; do
		[ -e "$md" ] && md_stop "$md" "${loops[@]}"
	done
	for l in "${loops[@]}"; do losetup -d "$l"; done
	rm -rf "$keydir"
	udevadm settle --timeout=10 2>/dev/null
}
trap cleanup EXIT

for i in 0 1 2 3; do
	truncate -s 64M "$dir/d$i"
	loops+=("$(losetup --find --show "$dir/d$i")")
done
echo "loops: ${loops[*]}"

# RAID1 on two, RAID10 near2 on four (after the RAID1 is gone).
mdadm --create /dev/md/sbt-r1 --run --level=1 --raid-devices=2 --metadata=1.2 \
	--assume-clean --bitmap=none "${loops[0]}" "${loops[1]}" >/dev/null 2>&1 || fail "mdadm RAID1 create"
udevadm settle --timeout=10
grep -q 'raid1' /proc/mdstat || fail "raid1 not in /proc/mdstat"
r1=$(readlink -f /dev/md/sbt-r1)
[ "$(cat /sys/block/${r1##*/}/md/level)" = raid1 ] || fail "md level is not raid1"
dd if=/dev/urandom of="$dir/blob" bs=1M count=4 status=none
dd if="$dir/blob" of="$r1" bs=1M oflag=direct status=none
cmp -n $((4 << 20)) "$dir/blob" "$r1" || fail "RAID1 read-back differs"
md_stop /dev/md/sbt-r1 "${loops[@]}" || fail "mdadm stop RAID1"
echo "raid1 ok"

mdadm --create /dev/md/sbt-r10 --run --level=10 --layout=n2 --chunk=512 --raid-devices=4 \
	--metadata=1.2 --assume-clean --bitmap=none "${loops[@]}" >/dev/null 2>&1 || fail "mdadm RAID10 create"
udevadm settle --timeout=10
r10=$(readlink -f /dev/md/sbt-r10)
md=/sys/block/${r10##*/}/md
[ "$(cat $md/level)" = raid10 ] || fail "md level is not raid10"
[ "$(cat $md/chunk_size)" = 524288 ] || fail "chunk is $(cat $md/chunk_size), not 524288"
[ "$(cat $md/layout)" = 258 ] || fail "layout is $(cat $md/layout), not near2 (258)"
echo "raid10 ok: $(grep -A1 "^${r10##*/}" /proc/mdstat | tr -s ' ' | tr '\n' ' ')"

# LUKS2 on the RAID10: key on tmpfs only, fast fixed PBKDF (throwaway).
head -c 64 /dev/urandom > "$keydir/key"
cryptsetup luksFormat --batch-mode --type luks2 --cipher aes-xts-plain64 --key-size 512 \
	--sector-size 4096 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
	--key-file "$keydir/key" "$r10" || fail "luksFormat"
cryptsetup open --key-file "$keydir/key" "$r10" sbt-crypt || fail "luksOpen"
rm -f "$keydir/key"
st=$(cryptsetup status sbt-crypt)
grep -q 'cipher:  aes-xts-plain64' <<< "$st" || fail "cipher: $st"
grep -q 'keysize: 512 bits' <<< "$st" || fail "keysize: $st"
grep -q 'sector size:  4096' <<< "$st" || fail "sector size: $st"
mkfs.ext4 -q -b 4096 /dev/mapper/sbt-crypt || fail "mkfs on dm-crypt"
mkdir -p "$dir/mnt"
mount /dev/mapper/sbt-crypt "$dir/mnt"
cp "$dir/blob" "$dir/mnt/blob" && sync
echo 3 > /proc/sys/vm/drop_caches
cmp "$dir/blob" "$dir/mnt/blob" || fail "file on LUKS differs"
umount "$dir/mnt"
udevadm settle --timeout=10
for i in 1 2 3 4 5 6 7 8 9 10; do
	cryptsetup close sbt-crypt 2>/dev/null && break
	udevadm settle --timeout=10; sleep 0.5
done
[ ! -e /dev/mapper/sbt-crypt ] || fail "luksClose"
echo "dm-crypt ok"
md_stop /dev/md/sbt-r10 "${loops[@]}" || fail "mdadm stop RAID10"
[ ! -e /sys/block/${r10##*/} ] || fail "${r10##*/} still there after stop"

# dm-flakey and dm-delay load and map I/O.
sz=$(blockdev --getsz "${loops[0]}")
dmsetup create sbt-flakey --table "0 $sz flakey ${loops[0]} 0 5 0" || fail "dm-flakey"
dmsetup create sbt-delay --table "0 $sz delay ${loops[1]} 0 20" || fail "dm-delay"
dd if=/dev/mapper/sbt-delay of=/dev/null bs=64k count=4 iflag=direct status=none || fail "read through dm-delay"
dmsetup table sbt-flakey | grep -q flakey || fail "flakey table"
dm_remove sbt-flakey && dm_remove sbt-delay || fail "dmsetup remove"
echo "dm-flakey, dm-delay ok"

cleanup
trap - EXIT
loops=()
# Nothing of ours is left.
for n in /dev/md/sbt-r1 /dev/md/sbt-r10 /dev/mapper/sbt-crypt /dev/mapper/sbt-flakey /dev/mapper/sbt-delay; do
	[ ! -e "$n" ] || fail "left: $n"
done
! grep -q sbt- /proc/mdstat || fail "md array left: $(cat /proc/mdstat)"
! losetup -a | grep -q "$dir" || fail "loop devices left: $(losetup -a)"
echo "teardown ok"
