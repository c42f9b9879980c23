#!/bin/bash
# dm-integrity under md RAID1 (stacks/integrity.yml, small): bytes rotted on
# member 0's disk are a read error through member 0's integrity mapping,
# counted in its failures; md's check pass reads the good copy from member
# 1 and rewrites them, after which member 0 reads clean again, and the file
# written before reads back identical. Then teardown leaves nothing.
#   scripts/uml-run.sh -- tests/integration/uml/integrity_rot.sh
set -u
. "$(dirname "$0")/layers_lib.sh"

f=$root/stacks/integrity.yml
m0=/dev/mapper/sb-integrity-integrity-0
if ! out=$("$SB" -q build --set devices.loop.size=96MiB --set devices.loop.dir="$work" "$f" 2>&1); then
	bad "build: $out"; exit 1
fi
mnt=$(mountpoint_of integrity)
head -c 16M /dev/urandom > "$state/ref"
cp "$state/ref" "$mnt/random" && sync && echo 3 > /proc/sys/vm/drop_caches
dd if=$m0 of=/dev/null bs=1M iflag=direct status=none && ok "member 0 reads clean before the rot" ||
	bad "member 0 does not read clean right after build (the wipe did not tag every sector?)"
loop0=$(integritysetup status sb-integrity-integrity-0 | awk '$1 == "device:" { print $2 }')
check "integritysetup: algorithm" crc32c "$(integritysetup status sb-integrity-integrity-0 | awk '$1 == "integrity:" { print $2 }')"
before=$(integritysetup status sb-integrity-integrity-0 | awk '$1 == "failures:" { print $2 }')
# 64 KiB of rot in the middle of member 0's disk, behind dm-integrity's back
dd if=/dev/urandom of="$loop0" bs=64K seek=$((48 * 16)) count=1 oflag=direct status=none
if dd if=$m0 of=/dev/null bs=1M iflag=direct status=none 2>/dev/null; then
	bad "member 0 still reads clean after 64 KiB of rot on $loop0"
else
	ok "the rot is a read error through member 0's integrity mapping"
fi
fails0=$(integritysetup status sb-integrity-integrity-0 | awk '$1 == "failures:" { print $2 }')
[ "${fails0:-0}" -gt "${before:-0}" ] && ok "dm-integrity counted the rot: failures $before -> $fails0" ||
	bad "no integrity failures counted for the rot ('$before' -> '$fails0')"
md=$(basename "$(readlink -f /dev/md/sb-integrity)")
echo check > /sys/block/$md/md/sync_action
for ((i = 0; i < 600; i++)); do
	[ "$(cat /sys/block/$md/md/sync_action)" = idle ] && break
	sleep 0.2
done
check "md check pass finished" idle "$(cat /sys/block/$md/md/sync_action)"
check "md degraded after the repair" 0 "$(cat /sys/block/$md/md/degraded)"
dd if=$m0 of=/dev/null bs=1M iflag=direct status=none && ok "member 0 reads clean after md rewrote the rot" ||
	bad "member 0 still fails to read after md's check pass"
echo 3 > /proc/sys/vm/drop_caches
cmp -s "$state/ref" "$mnt/random" && ok "file reads back identical" || bad "file differs"
rm -f "$state/ref"
out=$("$SB" -q teardown integrity 2>&1) && ok "teardown" || bad "teardown: $out"
assert_clean "integrity"
