#!/bin/bash
# The ARM end-to-end proof (issue 28): boots Debian 12's armhf kernel
# (linux-image-armmp) under qemu-system-arm (-M virt, Cortex-A15, TCG) and
# runs, there, the armhf stackbench binary's `build-and-test` of a small
# Helios4-like stack: RAID1 over two 128 MiB loop devices -> LUKS2
# aes-cbc-essiv:sha256 (4096-byte sectors, as on the Helios4) -> ext4, the
# `quick` suite on 32 MiB; then checks that nothing is left (no loop, md or
# dm device, no stackbench mount), prints the results table and powers off.
# Exits non-zero, loudly, unless the guest printed its success marker.
#
#   tests/bench/arm_system.sh          (root; not part of CI: too slow)
#
# Time: the first run builds the armhf root from Debian's archive
# (debootstrap's first stage, no emulation, ~2-4 min with the download) and
# caches it in $SB_ARM_CACHE (default /var/cache/stackbench-arm, never in
# the repository); every run then boots (~30 s of guest time to /init) and
# runs the stack (2.5-3.5 min: build-and-test took 143 and 192 s of guest
# time, the whole script 180-276 s (276 s from an empty cache), on the shared 2-core host at load
# average 8-12; 2026-12-03, tests/bench/README.md). The binary: build-armhf/
# (built with cross/armhf.ini if missing) or $STACKBENCH_ARMHF_BIN.
#
# The figures are NOT the Helios4's: the guest is a generic ARMv7 CPU
# emulated by TCG (no CESA engine, software AES, a fraction of the host's
# speed) on a shared host. This proves that the armhf binary builds,
# measures and tears down a stack on an ARM kernel, not how fast.
#
# How: no binfmt_misc is needed. The armhf packages (the kernel, mdadm,
# cryptsetup, e2fsprogs, udev, kmod, the binary's libraries) are unpacked,
# not configured (nothing armhf runs on the host); the kernel modules are cut
# to the block, md, dm, crypto and ext4 ones and indexed with the host's
# depmod; the whole root becomes the initramfs (no disk image, no root=),
# and the guest's /init is the job below. The LUKS key is stackbench's own
# (generated in memory in the guest); nothing holds one on disk or argv.
set -euo pipefail
shopt -s inherit_errexit
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${SB_ARM_CACHE:-/var/cache/stackbench-arm}
mirror=${SB_ARM_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
timeout_s=${SB_ARM_TIMEOUT:-2400}
die() { echo "arm_system: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, device nodes in the initramfs)"
for p in qemu-system-arm debootstrap dpkg-deb depmod modprobe cpio; do
	command -v "$p" >/dev/null || die "$p is missing: scripts/install-deps.sh installs it"
done
echo "arm_system: host $(uname -r), uptime before: $(uptime)"
t0=$SECONDS

bin=${STACKBENCH_ARMHF_BIN:-$repo/build-armhf/stackbench}
if [ -z "${STACKBENCH_ARMHF_BIN:-}" ]; then
	[ -d "$repo/build-armhf" ] || meson setup "$repo/build-armhf" --cross-file "$repo/cross/armhf.ini" >/dev/null
	ninja -C "$repo/build-armhf" stackbench >/dev/null
fi
# ELF, 32-bit, e_machine 40 (EM_ARM)
[ "$(od -An -tx1 -N5 "$bin" | tr -d ' ')$(od -An -tx1 -j18 -N2 "$bin" | tr -d ' ')" = 7f454c46012800 ] ||
	die "$bin is not a 32-bit ARM executable"

# --- the armhf root, cached -------------------------------------------------
root=$cache/root
include=mdadm,cryptsetup-bin,e2fsprogs,udev,kmod,util-linux,procps,linux-image-armmp
# the binary's libraries (readelf -d build-armhf/stackbench) and the
# libblockdev plugins it loads
include+=,libblockdev2,libblockdev-mdraid2,libblockdev-crypto2,libblockdev-fs2,libblockdev-loop2
include+=,libblockdev-lvm2,libblockdev-part2,libcryptsetup12,libaio1,libyaml-0-2,libjson-c5
include+=,libcairo2,libssl3,libglib2.0-0,libgsl27,libgslcblas0
if [ ! -e "$cache/root.done" ]; then
	mkdir -p "$cache"
	rm -rf "$root" "$cache/base.cpio"
	echo "arm_system: building the armhf root in $root (debootstrap, first stage)"
	debootstrap --arch=armhf --foreign --variant=minbase --include="$include" \
		"$suite" "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/debootstrap.log" >&2; die "debootstrap failed (log: $cache/debootstrap.log)"; }
	# the first stage unpacks only the required packages: unpack the rest
	# (merged /usr: keep the /lib, /bin, /sbin links)
	for deb in "$root"/var/cache/apt/archives/*.deb; do
		dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$root"
	done
	rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/usr/share/{doc,man,info,locale,i18n,zoneinfo}
	# nor the boards' device trees (-M virt hands the kernel its own) nor
	# the package lists: a smaller initramfs
	rm -rf "$root"/usr/lib/linux-image-* "$root"/var/lib/apt/lists/*
	# the first stage leaves /proc a link to the host's
	rm -f "$root/proc"; mkdir -p "$root/proc"
	touch "$cache/root.done"
fi
kver=$(basename "$(ls -d "$root"/lib/modules/*-armmp | head -n 1)")
[ -n "$kver" ] && [ -f "$root/boot/vmlinuz-$kver" ] || die "no armmp kernel in $root"

# --- the initramfs: the root, its modules cut down --------------------------
if [ ! -s "$cache/base.cpio" ]; then
	mods=$root/lib/modules/$kver
	if [ ! -e "$mods/.cut" ]; then
		find "$mods/kernel" -name '*.ko' | grep -v -E \
			'/kernel/(crypto|lib|arch/arm/crypto|drivers/md|drivers/block|fs/ext4|fs/jbd2)/|/kernel/fs/mbcache\.ko' |
			xargs rm -f
		find "$mods/kernel" -depth -type d -empty -delete
		depmod -b "$root" "$kver"
		touch "$mods/.cut"
	fi
	echo "arm_system: packing the initramfs ($(du -sm "$root" | cut -f1) MiB)"
	(cd "$root" && find . -path ./boot -prune -o -print | cpio -o -H newc --quiet) >"$cache/base.cpio.tmp"
	mv "$cache/base.cpio.tmp" "$cache/base.cpio"
fi

# --- this run's files: the binary, the stack, /init ---------------------------
work=$(mktemp -d /tmp/sb-arm.XXXXXX)
qpid=
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
mkdir -p "$work/run/usr/local/bin" "$work/run/sb"
cp "$bin" "$work/run/usr/local/bin/stackbench"
cat >"$work/run/sb/helios-mini.yml" <<'EOF'
# A small Helios4 stack: RAID1 -> LUKS2 aes-cbc-essiv:sha256 (4096) -> ext4
name: helios-mini
description: armhf guest - RAID1 -> LUKS2 aes-cbc-essiv:sha256/256, sector 4096 -> ext4
devices:
  loop: {count: 2, size: 128MiB, sector_size: 512, dir: /var/tmp/stackbench}
raid: {level: 1, devices: 2, metadata: "1.2", sync: assume-clean}
luks: {type: luks2, cipher: aes-cbc-essiv:sha256, key_size: 256, sector_size: 4096,
       pbkdf: {type: pbkdf2, iterations: 1000}}
fs: {type: ext4, block_size: 4096}
bench: {suites: [quick], size: 32MiB, runtime: 2s}
EOF
cat >"$work/run/init" <<'EOF'
#!/bin/sh
# PID 1 of the armhf guest (tests/bench/arm_system.sh)
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm /run /tmp /var/tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
ln -sfn /proc/self/fd /dev/fd
echo 1 > /proc/sys/kernel/sysrq
echo 1 > /proc/sys/kernel/printk
job() {
	echo "== guest: $(uname -srm), $(grep -c ^processor /proc/cpuinfo) CPU(s), $(grep MemTotal /proc/meminfo | tr -s ' ')"
	grep -m1 -E '^(model name|Processor)' /proc/cpuinfo
	modprobe -a loop raid1 dm-mod dm-crypt ext4 || return 1
	/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1 || return 1
	udevadm control --ping --timeout=60 || return 1
	udevadm trigger --subsystem-match=block --action=add
	echo "== uptime before: $(cat /proc/uptime) ($(uptime))"
	stackbench --version
	echo "== build-and-test"
	# /proc/uptime in centiseconds (no awk: mawk's alternative link is made
	# by its postinst, which never ran)
	s=$(cut -d' ' -f1 /proc/uptime | tr -d .)
	stackbench --no-progress build-and-test /sb/helios-mini.yml; r=$?
	e=$(cut -d' ' -f1 /proc/uptime | tr -d .)
	echo "== build-and-test: exit $r, $(((e - s) / 100)).$(((e - s) % 100 / 10)) s of guest uptime"
	[ $r = 0 ] || return 1
	echo "== teardown check"
	left=0
	l=$(losetup -a); [ -z "$l" ] || { echo "left: loop devices: $l"; left=1; }
	m=$(ls /sys/block | grep -E '^(md|dm-)' || true); [ -z "$m" ] || { echo "left: $m"; left=1; }
	grep -E 'stackbench|/dev/(md|mapper|dm-|loop)' /proc/mounts && { echo "left: mounts"; left=1; }
	grep -E '^md' /proc/mdstat && left=1
	f=$(ls -A /var/tmp/stackbench 2>/dev/null); [ -z "$f" ] || { echo "left: backing files: $f"; left=1; }
	ls /dev/mapper
	cat /proc/mdstat
	[ $left = 0 ] && echo "nothing left: no loop, md or dm device, no mount, no backing file"
	return $left
}
job 2>&1
rc=$?
echo "== uptime after: $(cat /proc/uptime)"
echo "SB-ARM-RESULT rc=$rc"
sync
echo o > /proc/sysrq-trigger
sleep 30
EOF
chmod 755 "$work/run/init"
(cd "$work/run" && find . | cpio -o -H newc --quiet) >"$work/run.cpio"
cat "$cache/base.cpio" "$work/run.cpio" >"$work/initrd"

# --- boot -----------------------------------------------------------------
echo "arm_system: booting $kver under qemu-system-arm (-M virt, TCG)"
log=${SB_ARM_LOG:-$work/console.log}
tb=$SECONDS
timeout "$timeout_s" qemu-system-arm -M virt -cpu cortex-a15 -smp 2 -m 1536 \
	-nographic -no-reboot -monitor none -nic none -serial stdio \
	-kernel "$root/boot/vmlinuz-$kver" -initrd "$work/initrd" \
	-append "console=ttyAMA0 rdinit=/init panic=-1 quiet" </dev/null 2>&1 |
	sed -u 's/\r$//' | tee "$log" || true
echo "arm_system: qemu ran $((SECONDS - tb)) s; the whole script $((SECONDS - t0)) s"
grep -q '^SB-ARM-RESULT rc=0$' "$log" || die "FAILED: the guest did not report success (console above${SB_ARM_LOG:+, log: $log})"
echo "arm_system: PASS: the armhf binary built, measured and tore down the stack on $kver"
