#!/bin/bash
# Every shipped stack with an lvm or luks section (or the files given; md
# geometry of every stack and matrix expansion is prov_stacks.sh's): build it
# small, check with mdadm / sysfs / cryptsetup / lvm that md level,
# layout, chunk, LUKS type, cipher, key size, sector size, PBKDF, LV and
# extent size are exactly what the file asks (and the LV's and the LUKS
# mapping's read_ahead_kb what --set asked), write and read back a random
# file, tear it down and check nothing is left.
#   scripts/uml-run.sh -- tests/integration/uml/layers_stacks.sh [STACK.yml...]
set -u
. "$(dirname "$0")/layers_lib.sh"

stacks=("$@")
if [ ${#stacks[@]} = 0 ]; then
	for f in "$root"/stacks/*.yml; do
		grep -q '^matrix:' "$f" && continue   # layers_matrix.sh builds expansions
		grep -qE '^(lvm|luks):' "$f" && stacks+=("$f")
	done
fi

check_md() {
	local dev k det
	dev=$(ls -d /dev/md/sb-* 2>/dev/null | head -1)   # core may shorten long names
	k=$(basename "$(readlink -f "$dev")")
	[ -e "/sys/block/$k/md" ] || { bad "$NAME: no md array behind $dev"; return; }
	det=$(mdadm --detail "$dev")
	check "$NAME: md level (sysfs)" "raid$LEVEL" "$(cat /sys/block/$k/md/level)"
	check "$NAME: md raid disks" "$RDEV" "$(cat /sys/block/$k/md/raid_disks)"
	check "$NAME: md metadata" "1.2" "$(sed -n 's/^ *Version : //p' <<<"$det")"
	check "$NAME: md --assume-clean (nothing to resync)" "idle" "$(cat /sys/block/$k/md/sync_action)"
	if [ "$LEVEL" = 10 ] || [ "$LEVEL" = 5 ] || [ "$LEVEL" = 6 ]; then   # mdadm prints near=2 / left-symmetric
		check "$NAME: md layout (mdadm --detail)" "$LAYOUT" "$(sed -n 's/^ *Layout : //p' <<<"$det")"
		check "$NAME: md chunk (sysfs)" "$CHUNK" "$(cat /sys/block/$k/md/chunk_size)"
	fi
	if [ "$BITMAP" = none ]; then
		check "$NAME: md bitmap" "none" "$(cat /sys/block/$k/md/bitmap/location)"
	else
		check "$NAME: md bitmap internal" "yes" "$(grep -q '^[+-]' /sys/block/$k/md/bitmap/location && echo yes)"
	fi
	# --homehost=any: "any:NAME", or the bare name when that would pass
	# mdadm's 32-byte limit; never this host's name
	local mdname
	mdname=$(sed -n 's/^ *Name : \([^ ]*\).*/\1/p' <<<"$det")
	case "$mdname" in
	"any:sb-$NAME" | "sb-$NAME" | "$(basename "$(ls -d /dev/md/sb-* | head -1)")" | "any:$(basename "$(ls -d /dev/md/sb-* | head -1)")")
		ok "$NAME: md name is host-independent ($mdname)" ;;
	*) bad "$NAME: md name '$mdname' is not host-independent" ;;
	esac
}

check_lvm() {
	check "$NAME: VG extent size" "$EXTENT" "$(lvm vgs --noheadings --units b --nosuffix -o vg_extent_size "$VG" | tr -d ' ')"
	check "$NAME: LV segment type" "linear" "$(lvm lvs --noheadings -o segtype "$VG/$LV" | tr -d ' ')"
	if [ "$LVSIZE" = "100%FREE" ]; then
		check "$NAME: LV takes 100%FREE" "0" "$(lvm vgs --noheadings --units b --nosuffix -o vg_free "$VG" | tr -d ' ')"
	fi
	check "$NAME: LV node" "yes" "$([ -b "/dev/mapper/$VG-$LV" ] && echo yes)"
}

check_luks() {
	local name=sb-$NAME-crypt st under dump
	st=$(cryptsetup status "$name")
	under=$(sed -n 's/^ *device: *//p' <<<"$st")
	dump=$(cryptsetup luksDump "$under")
	check "$NAME: LUKS type" "$LTYPE" "$(sed -n 's/^ *type: *//p' <<<"$st")"
	check "$NAME: LUKS cipher" "$CIPHER" "$(sed -n 's/^ *cipher: *//p' <<<"$st")"
	check "$NAME: LUKS key size" "$KEY bits" "$(sed -n 's/^ *keysize: *//p' <<<"$st")"
	check "$NAME: LUKS sector size" "$SECTOR" "$(sed -n 's/^ *sector size: *//p' <<<"$st")"
	check "$NAME: LUKS PBKDF" "pbkdf2" "$(sed -n 's/^\tPBKDF: *//p' <<<"$dump" | head -1)"
	check "$NAME: LUKS PBKDF iterations (fixed)" "$ITER" "$(sed -n 's/^\tIterations: *//p' <<<"$dump" | head -1)"
	if [ "$SECTOR" != 512 ]; then
		check "$NAME: dm table sector_size" "yes" "$(dmsetup table "$name" | grep -q "sector_size:$SECTOR" && echo yes)"
	else
		check "$NAME: dm table has no sector_size (512)" "no" "$(dmsetup table "$name" | grep -q "sector_size:" && echo yes || echo no)"
	fi
}

readwrite() {
	local mnt src=$work/random.src
	mnt=$(mountpoint_of "$NAME")
	[ -n "$mnt" ] && mountpoint -q "$mnt" || { bad "$NAME: not mounted ($mnt)"; return; }
	check "$NAME: $FS block size" "$BLOCK" "$(stat -f -c %S "$mnt")"
	head -c 8M /dev/urandom > "$src"
	cp "$src" "$mnt/random" && sync
	echo 3 > /proc/sys/vm/drop_caches
	if cmp -s "$src" "$mnt/random"; then ok "$NAME: 8 MiB random file read back identical"; else bad "$NAME: read-back differs"; fi
	rm -f "$src"
}

mkdir -p "$state/noexport"   # not in $work: its files would count as leftovers
for f in "${stacks[@]}"; do
	f=$(sb_without_export "$f" "$state/noexport") || { bad "$f: cannot drop its export section"; continue; }
	eval "$(expect "$f")"
	echo "# $NAME ($f)"
	# every block layer's read_ahead_kb (one shared key), read back below
	ra=()
	[ "$LVM" = 1 ] && ra+=(--set lvm.read_ahead_kb=1280)
	[ "$LUKS" = 1 ] && ra+=(--set luks.read_ahead_kb=2560)
	if ! "$SB" build --set devices.loop.size="$LOOPSIZE" --set devices.loop.dir="$work" "${ra[@]}" "$f"; then
		bad "$NAME: build failed"
		assert_clean "$NAME after failed build"
		continue
	fi
	ok "$NAME: built"
	[ "$LEVEL" != 0 ] && check_md
	[ "$LVM" = 1 ] && check_lvm
	[ "$LUKS" = 1 ] && check_luks
	[ "$LVM" = 1 ] && check "$NAME: LV read_ahead_kb" 1280 \
		"$(cat "/sys/block/$(basename "$(readlink -f "/dev/mapper/$VG-$LV")")/queue/read_ahead_kb")"
	[ "$LUKS" = 1 ] && check "$NAME: LUKS mapping read_ahead_kb" 2560 \
		"$(cat "/sys/block/$(basename "$(readlink -f "/dev/mapper/sb-$NAME-crypt")")/queue/read_ahead_kb")"
	readwrite
	if "$SB" teardown "$NAME"; then ok "$NAME: teardown"; else bad "$NAME: teardown failed"; fi
	assert_clean "$NAME after teardown"
done
