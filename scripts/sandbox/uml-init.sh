#!/bin/sh
# PID 1 inside the throwaway user-mode-linux kernel. The kernel hands us
# SB_JOB (a shell script on the shared host filesystem) through its command
# line; we prepare the minimal system stackbench needs (proc, sysfs, devtmpfs,
# /run, module loading, udev), run the job, and write its exit status to
# $SB_JOB.rc because the kernel's own exit status does not carry it.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
# /lib/modules does not exist on the host; point the kernel's module loader
# at a wrapper that looks in user-mode-linux's module tree.
if [ -n "$SB_MODROOT" ] && [ -x "$SB_MODROOT/modprobe" ]; then
	echo "$SB_MODROOT/modprobe" > /proc/sys/kernel/modprobe
	for m in loop raid1 raid10 dm-mod dm-crypt; do "$SB_MODROOT/modprobe" -q "$m"; done
fi
echo 0 > /proc/sys/kernel/printk 2>/dev/null
if [ -x /lib/systemd/systemd-udevd ]; then
	/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1
	udevadm trigger >/dev/null 2>&1
	udevadm settle --timeout=30 >/dev/null 2>&1
fi
rc=127
if [ -n "$SB_JOB" ] && [ -f "$SB_JOB" ]; then
	cd "${SB_CWD:-/}" 2>/dev/null || cd /
	sh "$SB_JOB" </dev/null
	rc=$?
fi
echo "$rc" > "$SB_JOB.rc"
sync
udevadm control --exit >/dev/null 2>&1
halt -f
