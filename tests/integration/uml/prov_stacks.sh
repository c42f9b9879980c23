#!/bin/bash
# Every stack in stacks/ (matrix files: every expansion, but the first and
# last of a matrix over a tunable alone), small: build,
# write a file of random content, sync, drop caches, read back and compare;
# check with mdadm / sysfs / cryptsetup / lvm / dumpe2fs that what was built
# is exactly what the stack asked for: md level, layout, chunk, metadata 1.2,
# --assume-clean (idle), bitmap, a host-independent array name; LUKS type,
# cipher, key size, sector size (and the dm table's sector_size), PBKDF and
# its fixed iterations; VG extent size, a linear LV, 100%FREE taken, the LV
# node; ext4 block size, stride and stripe width; tear down and check that
# nothing is left (/proc/mdstat, dm devices, loop devices, mounts, LVM,
# backing files, state). (It took over layers_stacks.sh's checks, which
# built the LVM and LUKS stacks a second time.) Needs md and device-mapper:
# outside the throwaway kernel it boots one and runs itself inside.
#   tests/integration/uml/prov_stacks.sh [STACK.yml...]   (SB_BUILD_DIR=build)
# SB_PROV_SHARD=K/N: only every N-th stack (expansions counted), from the
# K-th. Under the integration harness (SB_TEST_DIR set) it is 1/2 and
# prov_stacks_2.sh runs 2/2, so two throwaway kernels share the ~20 builds
# (about 8 minutes each on a quiet machine; one kernel alone passed the
# 1500 s test timeout under load); by hand: every stack.
set -u
src=$(cd "$(dirname "$0")/../../.." && pwd)
. "$src/tests/integration/lib.sh"
sb_uml_test "$0" "$@"   # outside the throwaway kernel: boots one, runs there
build=${SB_BUILD_DIR:-$src/build}
sb=$build/stackbench
[ -x "$sb" ] || { echo "FAIL: $sb not built"; exit 1; }
if [ $# -eq 0 ]; then set -- "$src"/stacks/*.yml; fi
# A binary built without the md/lvm/luks layers cannot run these.
if "$sb" plan "$@" 2>&1 >/dev/null | grep -q "does not include"; then
	echo "SKIP: this stackbench lacks a layer the shipped stacks need"; exit 77
fi

tmp=$(mktemp -d /tmp/sb-prov-stacks.XXXXXX)
export STACKBENCH_STATE_DIR=$tmp/state
work=$tmp/work
size=${SB_TEST_LOOP_SIZE:-64MiB}
sets=()
fails=0

leaks() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] && grep -q -F "$tmp" "$f" 2>/dev/null && echo "leaked loop: $f -> $(cat "$f")"
	done
	for f in /sys/block/md*/md; do
		[ -d "$f" ] && echo "leaked md: $f"
	done
	for f in /sys/block/dm-*/dm/name; do
		[ -r "$f" ] && grep -q '^sb[-_]' "$f" && echo "leaked dm: $(cat "$f")"
	done
	findmnt -rn -o TARGET | grep -F "$tmp" | sed 's/^/leaked mount: /'
	find "$work" -type f 2>/dev/null | sed 's/^/leaked file: /'
	find "$STACKBENCH_STATE_DIR" -name '*.state' 2>/dev/null | sed 's/^/leaked state: /'
	vgs --noheadings -o vg_name 2>/dev/null | grep -w 'sb_.*' | sed 's/^/leaked VG: /'
}
cleanup() {
	local rc=$? left
	trap - EXIT INT TERM
	"$sb" -q teardown --all >/dev/null 2>&1
	left=$(leaks)
	if [ -n "$left" ]; then echo "FAIL: leaked after the tests:"; echo "$left"; rc=1; fi
	rm -rf "$tmp"
	exit $rc
}
trap cleanup EXIT INT TERM

# md's RAID10 layout in sysfs: near copies in bits 0-7, far copies in bits
# 8-15, 0x10000 for offset (near2 = 0x102, far2 = 0x201, offset2 = 0x10201)
md_layout_value() {
	local n=${1//[!0-9]/}
	case "$1" in
	n*) echo $((n | 1 << 8)) ;; f*) echo $((1 | n << 8)) ;; o*) echo $((1 | n << 8 | 0x10000)) ;;
	esac
}

# md's RAID5/6 layout number in sysfs (drivers/md/raid5.h ALGORITHM_*)
r56_layout_value() {
	case "$1" in
	left-asymmetric) echo 0 ;; right-asymmetric) echo 1 ;; left-symmetric) echo 2 ;;
	right-symmetric) echo 3 ;; parity-first) echo 4 ;; parity-last) echo 5 ;;
	ddf-zero-restart) echo 8 ;; ddf-N-restart) echo 9 ;; ddf-N-continue) echo 10 ;;
	left-asymmetric-6) echo 16 ;; right-asymmetric-6) echo 17 ;; left-symmetric-6) echo 18 ;;
	right-symmetric-6) echo 19 ;; parity-first-6) echo 20 ;; *) echo "unknown-$1" ;;
	esac
}

# md_geometry MD NAME LAYOUT WANT CHUNK_KIB: the array's layout is WANT
# (LAYOUT's number) and its chunk CHUNK_KIB, as the summary says; sets
# the caller's chunk (KiB) and raid_devs (the member count).
md_geometry() {
	local md=$1 name=$2 layout=$3 want=$4
	chunk=$5
	[ "$(cat /sys/block/$md/md/layout)" = "$want" ] && ok "$name: md layout $layout" ||
		bad "$name: md layout $(cat /sys/block/$md/md/layout), want $want ($layout)"
	[ "$(cat /sys/block/$md/md/chunk_size)" = $((chunk * 1024)) ] && ok "$name: chunk $chunk KiB" ||
		bad "$name: chunk $(cat /sys/block/$md/md/chunk_size)"
	raid_devs=$(cat /sys/block/$md/md/raid_disks)
}

# keys NAME FILE: the expansion NAME's keys as shell assignments (from
# validate --json: what the stack asked for).
keys() {
	"$sb" validate --json "${sets[@]}" "$2" | python3 -c '
import json, sys
d = [x for x in json.load(sys.stdin) if x["name"] == sys.argv[1]][0]
r, l, k = d["raid"], d["lvm"], d["luks"]
on = lambda s: bool(s.get("enabled"))
out = {
    "BITMAP": r.get("bitmap", "") if on(r) else "",
    "VG": "sb_" + l["vg"] if on(l) else "", "LV": "sb_" + l["lv"] if on(l) else "",
    "EXTENT": l.get("extent_size", 0) if on(l) else 0,
    "LVSIZE": l.get("size", "") if on(l) else "",
    "LTYPE": k.get("type", "").upper() if on(k) else "",
    "SECTOR": k.get("sector_size", 0) if on(k) else 0,
    "ITER": (k.get("pbkdf") or {}).get("iterations", 0) if on(k) else 0,
}
for key, v in out.items():
    print("%s=%s" % (key, "\x27%s\x27" % v))
' "$1"
}

# check NAME WANT GOT
check() {
	[ "$2" = "$3" ] && ok "$1: $2" || bad "$1: '$3', want '$2'"
}

# md beyond level and geometry: metadata, resync, bitmap, its name
md_more() { # name md
	local name=$1 md=$2 det mdname node
	det=$(mdadm --detail "/dev/$md")
	check "$name: md metadata" "1.2" "$(sed -n 's/^ *Version : //p' <<<"$det")"
	check "$name: md --assume-clean (nothing to resync)" "idle" "$(cat /sys/block/$md/md/sync_action)"
	if [ "$BITMAP" = none ]; then
		check "$name: md bitmap" "none" "$(cat /sys/block/$md/md/bitmap/location)"
	elif [ -n "$BITMAP" ]; then
		check "$name: md bitmap internal" "yes" "$(grep -q '^[+-]' /sys/block/$md/md/bitmap/location && echo yes)"
	fi
	# --homehost=any: "any:NAME", or the bare name when that would pass
	# mdadm's 32-byte limit; never this host's name
	mdname=$(sed -n 's/^ *Name : \([^ ]*\).*/\1/p' <<<"$det")
	node=$(basename "$(ls -d /dev/md/sb-* 2>/dev/null | head -1)")
	case "$mdname" in
	"any:sb-$name" | "sb-$name" | "$node" | "any:$node") ok "$name: md name is host-independent ($mdname)" ;;
	*) bad "$name: md name '$mdname' is not host-independent" ;;
	esac
}

# LUKS beyond cipher, key and sector: type, PBKDF, the dm table
luks_more() { # name
	local name=$1 dm=sb-$1-crypt st under dump
	st=$(cryptsetup status "$dm")
	under=$(sed -n 's/^ *device: *//p' <<<"$st")
	dump=$(cryptsetup luksDump "$under")
	check "$name: LUKS type" "$LTYPE" "$(sed -n 's/^ *type: *//p' <<<"$st")"
	check "$name: LUKS PBKDF" "pbkdf2" "$(sed -n 's/^\tPBKDF: *//p' <<<"$dump" | head -1)"
	check "$name: LUKS PBKDF iterations (fixed)" "$ITER" "$(sed -n 's/^\tIterations: *//p' <<<"$dump" | head -1)"
	if [ "$SECTOR" != 512 ]; then
		check "$name: dm table sector_size" "yes" "$(dmsetup table "$dm" | grep -q "sector_size:$SECTOR" && echo yes)"
	else
		check "$name: dm table has no sector_size (512)" "no" "$(dmsetup table "$dm" | grep -q "sector_size:" && echo yes || echo no)"
	fi
}

lvm_more() { # name
	local name=$1
	check "$name: VG extent size" "$EXTENT" "$(lvm vgs --noheadings --units b --nosuffix -o vg_extent_size "$VG" | tr -d ' ')"
	check "$name: LV segment type" "linear" "$(lvm lvs --noheadings -o segtype "$VG/$LV" | tr -d ' ')"
	if [ "$LVSIZE" = "100%FREE" ]; then
		check "$name: LV takes 100%FREE" "0" "$(lvm vgs --noheadings --units b --nosuffix -o vg_free "$VG" | tr -d ' ')"
	fi
	check "$name: LV node" "yes" "$([ -b "/dev/mapper/$VG-$LV" ] && echo yes)"
}

check_stack() { # name summary file
	local name=$1 sum=$2 file=$3 out mnt top md lvl luks bs want chunk= raid_devs data stride width
	eval "$(keys "$name" "$file")" || { bad "$name: no keys from validate --json"; return; }
	out=$("$sb" -q build "${sets[@]}" --stack "$name" "$file" 2>"$tmp/err") ||
		{ bad "$name: build failed: $(cat "$tmp/err")"; return; }
	mnt=$STACKBENCH_STATE_DIR/mnt/$name
	head -c 8M /dev/urandom > "$tmp/random"
	cp "$tmp/random" "$mnt/random" && sync && echo 3 > /proc/sys/vm/drop_caches
	cmp -s "$tmp/random" "$mnt/random" && ok "$name: data read back identical" || bad "$name: data differs"
	if [[ $sum =~ RAID(1|5|6|10)\  ]]; then
		lvl=${BASH_REMATCH[1]}
		# the array's node as the state recorded it (long names are shortened)
		md=$("$sb" status | awk -v s="$name" '$1 == s { on = 1; next } /^[^ ]/ { on = 0 } on && $1 == "md" && $2 == "md" { print $3 }')
		md=$(basename "$(readlink -f "$md")")
		[ "$(cat /sys/block/$md/md/level)" = "raid$lvl" ] && ok "$name: md level raid$lvl" ||
			bad "$name: md level $(cat /sys/block/$md/md/level), want raid$lvl"
		md_more "$name" "$md"
		if [[ $sum =~ \+\ dm-integrity\ ([a-z0-9-]+)\  ]]; then   # md's members are the integrity mappings
			want=${BASH_REMATCH[1]}; [[ $want == hmac-* ]] && want="hmac(${want#hmac-})"
			[ "$(integritysetup status "sb-$name-integrity-0" | awk '$1 == "integrity:" { print $2 }')" = "$want" ] &&
				ls /sys/block/$md/slaves | grep -q '^dm-' && ok "$name: md over dm-integrity $want" ||
				bad "$name: md members: $(ls /sys/block/$md/slaves), integrity: $(integritysetup status "sb-$name-integrity-0" 2>&1 | grep integrity:)"
		fi
		if [ "$lvl" = 10 ] && [[ $sum =~ RAID10\ ([a-z]+[0-9]+)\ .*\ ([0-9]+)\ KiB\ chunks ]]; then
			md_geometry "$md" "$name" "${BASH_REMATCH[1]}" "$(md_layout_value "${BASH_REMATCH[1]}")" "${BASH_REMATCH[2]}"
			data=$((raid_devs / ${BASH_REMATCH[1]//[!0-9]/}))
		fi
		if [[ $lvl =~ ^[56]$ ]] && [[ $sum =~ RAID[56]\ ([a-zN-]+[-6]*)\ .*\ ([0-9]+)\ KiB\ chunks ]]; then
			md_geometry "$md" "$name" "${BASH_REMATCH[1]}" "$(r56_layout_value "${BASH_REMATCH[1]}")" "${BASH_REMATCH[2]}"
			data=$((raid_devs - lvl + 4))   # RAID5: n-1, RAID6: n-2
		fi
	fi
	if [[ $sum =~ LUKS[12]\ ([^/]+)/([0-9]+),\ ([0-9]+)\ B\ sectors ]]; then
		luks=$(cryptsetup status "sb-$name-crypt" 2>&1)
		echo "$luks" | grep -q "cipher: *${BASH_REMATCH[1]}$" && ok "$name: cipher ${BASH_REMATCH[1]}" ||
			bad "$name: cipher: $(echo "$luks" | grep cipher:)"
		echo "$luks" | grep -q "keysize: *${BASH_REMATCH[2]} bits" && ok "$name: key ${BASH_REMATCH[2]} bits" ||
			bad "$name: keysize: $(echo "$luks" | grep keysize:)"
		echo "$luks" | grep -q "sector size: *${BASH_REMATCH[3]}$" && ok "$name: LUKS sector ${BASH_REMATCH[3]}" ||
			bad "$name: sector size: $(echo "$luks" | grep 'sector size:')"
		luks_more "$name"
	fi
	[ -n "$VG" ] && lvm_more "$name"
	if [[ $sum =~ ext4\ ([0-9]+)\ KiB ]]; then
		top=$(findmnt -n -o SOURCE "$mnt")
		bs=$(dumpe2fs -h "$top" 2>/dev/null | awk -F: '/^Block size/ { gsub(/ /, "", $2); print $2 }')
		[ "$bs" = $((BASH_REMATCH[1] * 1024)) ] && ok "$name: ext4 block size $bs" || bad "$name: ext4 block size '$bs'"
		if [ -n "$chunk" ] && [ -n "$bs" ]; then
			# stride = chunk / block; stripe width = stride x data disks
			stride=$(dumpe2fs -h "$top" 2>/dev/null | awk -F: '/^RAID stride/ { gsub(/ /, "", $2); print $2 }')
			width=$(dumpe2fs -h "$top" 2>/dev/null | awk -F: '/^RAID stripe width/ { gsub(/ /, "", $2); print $2 }')
			[ "$stride" = $((chunk * 1024 / bs)) ] && [ "$width" = $((chunk * 1024 / bs * data)) ] &&
				ok "$name: ext4 stride $stride, stripe width $width" ||
				bad "$name: ext4 stride '$stride', stripe width '$width'"
		fi
	fi
	"$sb" -q teardown "$name" 2>"$tmp/err" || bad "$name: teardown: $(cat "$tmp/err")"
	left=$(leaks)
	[ -z "$left" ] && ok "$name: torn down, nothing left" || { bad "$name: left behind:"; echo "$left"; }
}

nstacks=0
idx=0
shard=${SB_PROV_SHARD:-}
[ -z "$shard" ] && [ -n "${SB_TEST_DIR:-}" ] && [ $# -eq 0 ] && shard=1/2
[ -n "$shard" ] || shard=1/1
[[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] &&
	[ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] || { echo "FAIL: SB_PROV_SHARD=$shard: K/N, 1 <= K <= N"; exit 1; }
shard_k=${BASH_REMATCH[1]}
shard_n=${BASH_REMATCH[2]}
# The loop size for every stack of a file: $size, or more where one of its
# stacks needs it (its smallest, from validate --json: xfs needs 300 MiB).
file_size() {
	"$sb" validate --json --set "devices.loop.dir=$work" "$1" | python3 -c '
import json, re, sys
m = re.fullmatch(r"([0-9]+)(B|KiB|MiB|GiB)", sys.argv[1])
want = int(m.group(1)) << {"B": 0, "KiB": 10, "MiB": 20, "GiB": 30}[m.group(2)]
print("%dB" % max([want] + [d.get("min_loop_size", 0) for d in json.load(sys.stdin)]))' "$size"
}

mkdir -p "$tmp/noexport"
for f in "$@"; do
	# the storage stack only: see sb_without_export (lib.sh)
	f=$(sb_without_export "$f" "$tmp/noexport") || { bad "$f: cannot drop its export section"; continue; }
	fsize=$(file_size "$f") || { bad "$f does not validate"; continue; }
	sets=(--set "devices.loop.dir=$work" --set "devices.loop.size=$fsize")
	# no process substitution: the throwaway kernel has no /dev/fd
	list=$("$sb" validate "${sets[@]}" "$f") || { bad "$f does not validate"; continue; }
	# A matrix that sweeps only a tunable (raid5-stripe-cache: the same
	# RAID5 built four times, one sysfs value apart): its first and last
	# expansion (per_layer_models, run by hand, reads every value back)
	case ${f##*/} in raid5-stripe-cache.yml) list=$(sed -n '1p;$p' <<< "$list") ;; esac
	while IFS= read -r line; do
		# "ok FILE: NAME: SUMMARY"
		rest=${line#ok "$f": }
		name=${rest%%: *}
		sum=${rest#*: }
		idx=$((idx + 1))
		[ $(( (idx - 1) % shard_n )) -eq $((shard_k - 1)) ] || continue
		nstacks=$((nstacks + 1))
		check_stack "$name" "$sum" "$f"
	done <<< "$list"
done
[ $nstacks -gt 0 ] || bad "no stack was tested"
[ $fails -eq 0 ] && echo "PASS: prov_stacks ($nstacks of $idx stacks, shard $shard)" ||
	echo "FAIL: prov_stacks ($fails failed, $nstacks of $idx stacks, shard $shard)"
[ $fails -eq 0 ]
