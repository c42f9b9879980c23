#!/bin/sh
# PID 1 inside the throwaway user-mode-linux kernel (used by stackbench's
# sandbox runner, src/core/sandbox.c, and by scripts/uml-run.sh). The kernel
# hands us, through its command line, SB_JOB (a shell script on the shared
# host filesystem) and SB_MODROOT (a dir with a modprobe wrapper); we prepare
# the minimal system stackbench needs (proc, sysfs, devtmpfs, /run, module
# loading, udev for the devices the job adds), run the job, and write its exit status to $SB_JOB.rc
# because the kernel's own exit status does not carry it.
# Optional: SB_CWD (start dir), SB_ERRTTY (tty for the job's stderr, e.g.
# /dev/tty1 wired to the host's stderr), SB_MARK=1 (frame the job's console
# output with markers so the host can drop the kernel's own messages),
# SB_PIPE_OUT/SB_PIPE_ERR=1 (the host's stdout/stderr is not a terminal:
# give the job a pipe, not a tty, so it behaves as it would on the host).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
# devtmpfs lacks the usual links (bash's process substitution needs /dev/fd)
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
# Ctrl-Alt-Del (UML's management console "cad", sent by the host on Ctrl-C)
# becomes SIGINT to us instead of an immediate reboot.
echo 0 > /proc/sys/kernel/ctrl-alt-del 2>/dev/null
# /lib/modules does not exist on the host; point the kernel's module loader
# at a wrapper that looks in user-mode-linux's module tree.
if [ -n "$SB_MODROOT" ] && [ -x "$SB_MODROOT/modprobe" ]; then
	echo "$SB_MODROOT/modprobe" > /proc/sys/kernel/modprobe
	# One modprobe for all (a process each costs more than the loading
	# in a loaded UML); the others (dm-flakey, raid456...) the kernel
	# loads itself when asked, through the wrapper above.
	"$SB_MODROOT/modprobe" -q -a loop raid1 raid10 dm-mod dm-crypt
fi
echo 0 > /proc/sys/kernel/printk 2>/dev/null
# udev for the devices the job adds (dm's udev cookies, /dev/md/ and
# /dev/disk/ links, blkid): no full `udevadm trigger` of every device UML
# has (hundreds of ttys; most of the boot's time) and no settle: of what
# exists before the job only the block devices (ubd members, loops) may
# matter; their "add" is replayed, and whatever needs it settles itself.
if [ -x /lib/systemd/systemd-udevd ]; then
	/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1
	# --daemon returns before the control socket is up: wait for it, or
	# the job would start believing no udev runs.
	udevadm control --ping --timeout=30 >/dev/null 2>&1
	udevadm trigger --subsystem-match=block --action=add >/dev/null 2>&1
fi
# Consoles translate \n to \r\n; the host wants the bytes as written.
stty -opost 2>/dev/null
exec 3>&1
if [ -n "$SB_ERRTTY" ] && [ -c "$SB_ERRTTY" ]; then
	exec 3<>"$SB_ERRTTY"
	stty -opost <&3 2>/dev/null
fi
# fd 4: the job's stdout, fd 5: its stderr; a pipe through cat where the
# host's side is not a terminal.
# (each process costs a loaded UML a good fraction of a second: one mkfifo)
pids=
fifos=
[ "$SB_PIPE_OUT" = 1 ] && fifos=/run/sb-out
[ "$SB_PIPE_ERR" = 1 ] && fifos="$fifos /run/sb-err"
[ -n "$fifos" ] && mkfifo $fifos
if [ "$SB_PIPE_OUT" = 1 ] && [ -p /run/sb-out ]; then
	cat /run/sb-out & pids="$pids $!"; exec 4>/run/sb-out
else
	exec 4>&1
fi
if [ "$SB_PIPE_ERR" = 1 ] && [ -p /run/sb-err ]; then
	cat /run/sb-err >&3 & pids="$pids $!"; exec 5>/run/sb-err
else
	exec 5>&3
fi
rc=127
if [ -n "$SB_JOB" ] && [ -f "$SB_JOB" ]; then
	cd "${SB_CWD:-/}" 2>/dev/null || cd /
	[ "$SB_MARK" = 1 ] && printf '\036\036sb-start\036\036'
	# Background, so a stop request (SIGINT to us) can be passed on: as
	# SIGTERM, since background jobs of a shell ignore SIGINT.
	sh "$SB_JOB" </dev/null >&4 2>&5 &
	job=$!
	# Our own stderr is the console: no "Terminated" notices into the
	# job's stdout.
	exec 2>/dev/null
	stop=0
	trap 'stop=1; kill -TERM $job 2>/dev/null' INT TERM
	wait $job
	rc=$?
	# A trap interrupts wait; wait again for the job's own status.
	while [ "$stop" = 1 ]; do
		stop=2
		wait $job
		r=$?
		[ "$r" != 127 ] && rc=$r
	done
fi
exec 4>&- 5>&-
[ -n "$pids" ] && wait $pids
[ "$SB_MARK" = 1 ] && printf '\036\036sb-end\036\036'
echo "$rc" > "$SB_JOB.rc"
# hostfs caches writes: the job's files on the host must be out before the
# halt. udevd is not asked to exit first (that waits for its workers); it
# only writes to /run, which dies with this kernel.
sync
halt -f
