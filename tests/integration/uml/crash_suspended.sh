#!/bin/bash
# A dm device left suspended after a kill -9 is resumed first and removed by
# `teardown --all`, within a bound (timeout 120 s; a teardown that tried to
# unmount ext4 above a suspended device would hang in D state for good):
#  1. LUKS opened, nothing above: the crypt mapping suspended;
#  2. mounted: the crypt mapping under the mounted ext4 suspended;
#  3. lvm stack mounted: the LV suspended.
#   scripts/uml-run.sh -- tests/integration/uml/crash_suspended.sh
set -u
. "$(dirname "$0")/layers_lib.sh"
crash_vars


suspended_case() { # NAME FILE POINT DMNAME
	local name=$1 file=$2 point=$3 dm=$4 out rc t0 secs
	echo "# $name"
	build_kill "$file" "$point" || { bad "$name: build never reached $point"; cat "$state/.build.log"; return; }
	if dmsetup suspend "$dm" && [ "$(dmsetup info -c --noheadings -o suspended "$dm")" = Suspended ]; then
		ok "$name: $dm suspended after the kill"
	else
		bad "$name: could not suspend $dm"
	fi
	t0=$(date +%s)
	out=$(timeout -k 5 120 "$SB" -v teardown --all 2>&1); rc=$?
	secs=$(( $(date +%s) - t0 ))
	echo "$out" | sed 's/^/    | /' | tail -8
	if [ $rc = 0 ]; then ok "$name: teardown --all exit 0 in ${secs}s"
	else bad "$name: teardown --all exit $rc after ${secs}s"
		# a hung teardown left the device suspended: let the cleanup work
		dmsetup resume "$dm" 2>/dev/null
	fi
	grep -q "resumed the suspended dm device $dm" <<<"$out" && ok "$name: teardown says it resumed $dm" ||
		bad "$name: no word of resuming $dm"
	assert_clean "$name"
}

suspended_case "luks open, suspended" "$root/stacks/luks4096.yml" after:luks sb-luks4096-crypt
suspended_case "mounted on luks, suspended" "$root/stacks/luks4096.yml" after:mount sb-luks4096-crypt
suspended_case "mounted on lvm, LV suspended" "$root/stacks/omv-ext4-lvm.yml" after:mount sb_vg0-sb_data
