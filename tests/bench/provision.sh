#!/bin/bash
# Side-by-side: provisioning RAID1 -> LUKS2 (aes-cbc-essiv:sha256, 4096-byte
# sectors) -> ext4 on two 512 MiB loop devices, and tearing it down again,
# with `stackbench build` + `stackbench teardown` against the same steps typed
# as losetup / mdadm / cryptsetup / mkfs.ext4 / mount and back (issue 13,
# item 5). Runs in ONE boot of the throwaway kernel (scripts/uml-run.sh: md
# and device-mapper), alternating which goes first, ROUNDS rounds; prints
# every round and the ratio stackbench/typed of the medians.
# Baseline (issue 13): 6.0 s vs 4.3 s, 1.42x. Target <= 1.0x, goal 0.8x.
# A benchmark, not a pass/fail test: on a shared machine read the spread.
#   tests/bench/provision.sh [ROUNDS=3]      (root; boots UML itself)
# SB_PROV_DIR: where the backing files go (default /var/tmp, the host's
# disk through hostfs, for both sides). SB_PROV_TRACE=1: run stackbench
# under strace -f -tt -T (to /tmp/sb-provbench.strace.ROUND.{build,teardown});
# `stackbench -vv` stamps its own log with the seconds since it started.
set -euo pipefail
shopt -s inherit_errexit
ROUNDS=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SB=${STACKBENCH_BIN:-$root/build/stackbench}
if ! grep -q "^vendor_id.*User Mode Linux" /proc/cpuinfo 2>/dev/null && [ -z "${SB_PROV_INSIDE:-}" ]; then
	export SB_PROV_INSIDE=1 STACKBENCH_BIN=$SB
	echo "host load before the boot: $(cut -d' ' -f1-3 /proc/loadavg)"
	exec "$root/scripts/uml-run.sh" -- "$0" "$@"
fi
modprobe -q raid1 2>/dev/null || true
modprobe -q dm-crypt 2>/dev/null || true
work=$(mktemp -d "${SB_PROV_DIR:-/var/tmp}/sb-provbench.XXXXXX")
export STACKBENCH_STATE_DIR=$work/state
typed_mnt=$work/typed-mnt
L0= L1=
cleanup() {
	set +e
	"$SB" -q teardown provbench >/dev/null 2>&1
	mountpoint -q "$typed_mnt" 2>/dev/null && umount "$typed_mnt"
	[ -e /dev/mapper/sb-typed-crypt ] && cryptsetup close sb-typed-crypt
	[ -e /dev/md/sb-typed ] && mdadm --stop /dev/md/sb-typed >/dev/null 2>&1
	[ -n "$L0" ] && losetup -d "$L0"
	[ -n "$L1" ] && losetup -d "$L1"
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
cat > "$work/provbench.yml" <<'EOF'
name: provbench
devices:
  loop: {count: 2, size: 512MiB, sector_size: 512}
raid: {level: 1, devices: 2, metadata: "1.2", bitmap: internal, sync: assume-clean}
luks: {type: luks2, cipher: aes-cbc-essiv:sha256, key_size: 256, sector_size: 4096,
       pbkdf: {type: pbkdf2, iterations: 1000, hash: sha256}}
fs: {type: ext4, block_size: 4096}
EOF

now() { echo "$EPOCHREALTIME"; }

run_sb() {
	local pre=() pre2=()
	if [ "${SB_PROV_TRACE:-}" = 1 ]; then
		pre=(strace -f -tt -T -o "/tmp/sb-provbench.strace.$1.build")
		pre2=(strace -f -tt -T -o "/tmp/sb-provbench.strace.$1.teardown")
	fi
	# (the warning that hostfs refuses direct I/O for the loops: once is enough)
	"${pre[@]}" "$SB" -q --no-progress build "$work/provbench.yml" --set devices.loop.dir="$work/sb" \
		>/dev/null 2> >(grep -v "refused direct I/O" >&2)
	"${pre2[@]}" "$SB" -q --no-progress teardown provbench >/dev/null
}

# What the stack above does, typed: the same loop (512-byte sectors; buffered,
# as stackbench falls back to where the backing filesystem refuses direct
# I/O, which hostfs does), md, LUKS (same PBKDF cost, key on stdin) and mkfs options.
run_typed() {
	local d=$work/typed key
	mkdir -p "$d" "$typed_mnt"
	truncate -s 512M "$d/d0" "$d/d1"
	L0=$(losetup -f --show --sector-size 512 "$d/d0")
	L1=$(losetup -f --show --sector-size 512 "$d/d1")
	mdadm --create /dev/md/sb-typed --run --quiet --level=1 --raid-devices=2 --metadata=1.2 \
		--bitmap=internal --assume-clean --homehost=any "$L0" "$L1" 2>/dev/null
	key=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
	printf %s "$key" | cryptsetup luksFormat -q --type luks2 --cipher aes-cbc-essiv:sha256 \
		--key-size 256 --sector-size 4096 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--hash sha256 --key-file - /dev/md/sb-typed
	printf %s "$key" | cryptsetup open --key-file - /dev/md/sb-typed sb-typed-crypt
	key=
	mkfs.ext4 -q -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 -L typed /dev/mapper/sb-typed-crypt
	mount -t ext4 /dev/mapper/sb-typed-crypt "$typed_mnt"
	# and back
	umount "$typed_mnt"
	cryptsetup close sb-typed-crypt
	cryptsetup erase -q /dev/md/sb-typed
	wipefs -a -q /dev/md/sb-typed
	mdadm --stop --quiet /dev/md/sb-typed
	mdadm --zero-superblock "$L0" "$L1"
	losetup -d "$L0" "$L1"
	L0= L1=
	rm -rf "$d"
}

T=
timed() { # name round -> seconds in T (no subshell: cleanup must see L0/L1)
	local t0 t1
	t0=$(now)
	"run_$1" "$2"
	t1=$(now)
	T=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "provision: RAID1 -> LUKS2 aes-cbc-essiv:sha256/4096 -> ext4 on 2 x 512 MiB loops in $work; rounds=$ROUNDS"
printf "%-6s %12s %12s %8s\n" round stackbench typed ratio
sbs=() tys=()
for ((r = 1; r <= ROUNDS; r++)); do
	if [ $((r % 2)) = 1 ]; then
		timed sb "$r"; s=$T; timed typed "$r"; t=$T
	else
		timed typed "$r"; t=$T; timed sb "$r"; s=$T
	fi
	sbs+=("$s") tys+=("$t")
	printf "%-6s %11ss %11ss %7.2fx\n" "$r" "$s" "$t" "$(awk -v a="$s" -v b="$t" 'BEGIN { print a / b }')"
done
ms=$(median "${sbs[@]}") mt=$(median "${tys[@]}")
printf "%-6s %11ss %11ss %7.2fx   (ratio of medians; target <= 1.00x, goal 0.80x)\n" median "$ms" "$mt" \
	"$(awk -v a="$ms" -v b="$mt" 'BEGIN { print a / b }')"
