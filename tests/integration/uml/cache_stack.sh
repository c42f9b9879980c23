#!/bin/bash
# The cache layer in the kernel: stacks/cache.yml (RAID1 -> dm-cache
# writeback -> LUKS -> ext4, small) builds with the table it asked for
# (writeback, smq, 64 KiB blocks, over the md array, metadata + data
# dm-linear over one loop device on /dev/shm/sb-cache-cache.img), holds
# data, and tears down (cleaner policy for the dirty blocks) leaving
# nothing, also not the /dev/shm file; teardown again is a no-op. Then
# dm-cache over a single loop device (no md, writethrough, cache.dir in
# the work dir), and a build killed with the fast device made and
# sb-cache-cmeta recorded but not created (half a layer): teardown --all
# leaves nothing.
#   scripts/uml-run.sh -- tests/integration/uml/cache_stack.sh
set -u
. "$(dirname "$0")/layers_lib.sh"
sets=(--set devices.loop.size=96MiB --set devices.loop.dir="$work")
mark=$state/.paused

shm_clean() { # WHAT: no fast-device file and no loop over one
	local f
	f=$(ls /dev/shm/sb-*-cache.img "$work"/sb-*-cache.img 2>/dev/null)
	[ -z "$f" ] && ok "$1: no fast-device file left" || bad "$1: left $f"
	f=$(grep -l -- '-cache.img' /sys/block/loop*/loop/backing_file 2>/dev/null)
	[ -z "$f" ] && ok "$1: no loop over a fast-device file" || bad "$1: loops left: $f"
}

data_roundtrip() { # NAME
	local mnt
	mnt=$(mountpoint_of "$1")
	head -c 8M /dev/urandom > "$state/ref"
	cp "$state/ref" "$mnt/random" && sync && echo 3 > /proc/sys/vm/drop_caches
	cmp -s "$state/ref" "$mnt/random" && ok "$1: data read back identical" || bad "$1: data differs"
	rm -f "$state/ref"
}

# 1. the shipped stack
if out=$("$SB" -q build "${sets[@]}" "$root/stacks/cache.yml" 2>&1); then
	t=$(dmsetup table sb-cache-cache)
	echo "    table: $t"
	[[ $t == *" cache "*" 128 "*writeback*smq* ]] && ok "cache: dm-cache table, 128-sector blocks, writeback, smq" ||
		bad "cache: table '$t'"
	md=$(basename "$(readlink -f /dev/md/sb-cache)")
	origin=$(awk '{ print $6 }' <<<"$t")
	check "cache: origin is the md array" "$(cat /sys/block/$md/dev)" "$origin"
	check "cache: metadata linear, 5 MiB" "0 10240 linear" "$(dmsetup table sb-cache-cmeta | cut -d' ' -f1-3)"
	check "cache: data linear, 64 MiB" "0 131072 linear" "$(dmsetup table sb-cache-cdata | cut -d' ' -f1-3)"
	[ -f /dev/shm/sb-cache-cache.img ] && ok "cache: fast device file in /dev/shm" || bad "cache: no /dev/shm file"
	[ -e /dev/mapper/sb-cache-crypt ] && ok "cache: LUKS over the cache" || bad "cache: no sb-cache-crypt"
	data_roundtrip cache
	echo "    status: $(dmsetup status sb-cache-cache)"
	out=$("$SB" -v teardown cache 2>&1) && ok "cache: teardown" || { bad "cache: teardown"; echo "$out"; }
	assert_clean cache
	shm_clean cache
	out=$("$SB" teardown cache 2>&1); echo "    teardown again: rc=$? $out"
	assert_clean "cache (teardown again)"
else
	bad "cache: build: $out"
fi

# 2. over a single loop device, no md, writethrough, fast file in the work dir
cat > "$state/single.yml" <<YML
description: one loop -> dm-cache writethrough -> ext4
devices: {loop: {count: 1}}
cache: {size: 16MiB, mode: writethrough, block_size: 32KiB, dir: $work}
fs: {type: ext4}
YML
if out=$("$SB" -q build "${sets[@]}" "$state/single.yml" 2>&1); then
	t=$(dmsetup table sb-single-cache)
	[[ $t == *" 64 "*writethrough*smq* ]] && ok "single: 64-sector blocks, writethrough" || bad "single: table '$t'"
	origin=$(awk '{ print $6 }' <<<"$t")
	[[ $(cat /sys/dev/block/$origin/uevent 2>/dev/null) == *DEVNAME=loop* ]] && ok "single: origin is a loop device" ||
		bad "single: origin $origin"
	data_roundtrip single
	out=$("$SB" teardown single 2>&1) && ok "single: teardown" || { bad "single: teardown"; echo "$out"; }
	assert_clean single
	shm_clean single
else
	bad "single: build: $out"
fi

# 3. half a layer: killed with the fast device made, sb-cache-cmeta recorded
if sb_start_paused "$mark" "cache:dm" "$state/.build.log" "$SB" -vv build "${sets[@]}" "$root/stacks/cache.yml"; then
	[ -f /dev/shm/sb-cache-cache.img ] && ok "half: paused with the fast device made" || bad "half: no fast file at the pause"
	sb_reap 9 "$sb_bg_pid"
	out=$("$SB" -v teardown --all 2>&1) && ok "half: teardown --all" || { bad "half: teardown --all"; echo "$out"; }
	assert_clean half
	shm_clean half
else
	bad "half: build never reached cache:dm"; tail -5 "$state/.build.log"
	sb_reap 9 "$sb_bg_pid" 2>/dev/null
fi
