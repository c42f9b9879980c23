#!/bin/bash
# Run a command as root inside a throwaway user-mode-linux kernel that has md,
# dm-crypt, dm-flakey/delay/dust, loop, brd and scsi_debug as modules, using
# this machine's own root filesystem (hostfs). Exit status is the command's.
#   scripts/uml-run.sh [--mem 2G] [--ubd N:SIZE[:sparse]] -- CMD [ARGS...]
# --ubd N:SIZE attaches N scratch files of SIZE (preallocated with
# fallocate, and then without discard so they stay so, unless :sparse; in
# the temp dir, removed afterwards) as UML
# block devices /dev/ubda.. and tells stackbench inside to use them as
# members (SB_UBD_MEMBERS), as its own sandbox runner does.
# The working directory is kept. Output goes to this terminal (stdout and
# stderr both to stdout). Loop devices only: the host's disks are not visible
# in there. Env vars named SB_*, STACKBENCH_*, CI, ASAN_*, UBSAN_* are passed
# in. Memory: --mem, else $STACKBENCH_UML_MEM, else $SB_UML_MEM, else 2G.
# stackbench itself does the same in C (src/core/sandbox.c, `--sandbox`).
set -u
mem=${STACKBENCH_UML_MEM:-${SB_UML_MEM:-2G}}
ubd=
while [ $# -gt 0 ]; do
	case "$1" in
	--mem) mem=$2; shift 2 ;;
	--ubd) ubd=$2; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--mem SIZE] -- CMD [ARGS...]" >&2; exit 2; }
kernel=$(command -v linux.uml || command -v linux) || { echo "uml-run: user-mode-linux is not installed (apt-get install user-mode-linux)" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
# The xstate shim stackbench builds (src/sandbox/uml_xstate.c): without it
# linux.uml 6.1 panics at boot on hosts with a large XSAVE area (AMX).
shim=${STACKBENCH_UML_XSTATE:-}
if [ -z "$shim" ]; then
	for s in "$(dirname "${STACKBENCH_BIN:-$here/../build/stackbench}")/src/sandbox/sb-uml-xstate.so" \
		"$here/../build/src/sandbox/sb-uml-xstate.so" /usr/local/libexec/stackbench/sb-uml-xstate.so; do
		[ -r "$s" ] && { shim=$s; break; }
	done
fi
tmp=$(mktemp -d /tmp/sb-uml.XXXXXX)
kpid=
stop() {
	[ -n "$kpid" ] && kill -TERM "$kpid" 2>/dev/null && sleep 0.5 && kill -KILL "$kpid" 2>/dev/null
	exit 130
}
trap stop INT TERM HUP
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/modroot/lib"
ln -s /usr/lib/uml/modules "$tmp/modroot/lib/modules"
printf '#!/bin/sh\nexec /sbin/modprobe -d %s/modroot "$@"\n' "$tmp" > "$tmp/modprobe"
chmod +x "$tmp/modprobe"
ubdargs=()
if [ -n "$ubd" ]; then
	IFS=: read -r n size how <<< "$ubd"
	case "$n" in ''|*[!0-9]*) echo "uml-run: --ubd N:SIZE, N a number" >&2; exit 2 ;; esac
	[ "$n" -ge 1 ] && [ "$n" -le 16 ] || { echo "uml-run: --ubd: 1 to 16 devices" >&2; exit 2; }
	members=
	for ((i = 0; i < n; i++)); do
		if [ "${how:-}" = sparse ]; then
			truncate -s "$size" "$tmp/ubd$i"
		else
			fallocate -l "$size" "$tmp/ubd$i"
		fi || { echo "uml-run: cannot create $tmp/ubd$i ($size)" >&2; exit 1; }
		# preallocated ones without discard ('t'), as stackbench's own
		# runner: ubd punches a discard into the file (mkfs discards)
		if [ "${how:-}" = sparse ]; then
			ubdargs+=("ubd${i}=$tmp/ubd$i")
		else
			ubdargs+=("ubd${i}t=$tmp/ubd$i")
		fi
		members="$members${members:+,}/dev/ubd$(printf "\\$(printf %03o $((97 + i)))")"
	done
	export SB_UBD_MEMBERS=$members
fi
{
	echo "export PATH='$PATH'"
	for v in $(compgen -e | grep -E '^(SB_|STACKBENCH_|CI$|ASAN_|UBSAN_)' || true); do
		printf 'export %s=%q\n' "$v" "${!v}"
	done
	printf 'cd %q || exit 1\n' "$(pwd)"
	printf 'exec'; printf ' %q' "$@"; printf '\n'
} > "$tmp/job"
# Kernel parameters with '=' that the kernel does not know become init's
# environment: that is how the job and module root reach uml-init.sh.
# umid/uml_dir keep UML's pid file and control socket in our temp dir.
LD_PRELOAD=$shim "$kernel" mem="$mem" root=/dev/root rootfstype=hostfs rw quiet \
	con=null con0=fd:0,fd:1 umid="sbr-$$" uml_dir="$tmp/uml" \
	init="$here/sandbox/uml-init.sh" SB_JOB="$tmp/job" SB_MODROOT="$tmp" "${ubdargs[@]}" \
	</dev/null > >(grep --line-buffered -v -E '^(Checking|  Checking|Linux version|Kernel command|Warning: unable to open an initial console|Failed to initialize ubd|epollctl add err|SELinux|mmapper_init|Halting\.|reboot: System halted)') 2>&1 &
kpid=$!
wait "$kpid"
kpid=
if [ -f "$tmp/job.rc" ]; then
	exit "$(cat "$tmp/job.rc")"
fi
echo "uml-run: the throwaway kernel ended without reporting the command's exit status" >&2
exit 1
