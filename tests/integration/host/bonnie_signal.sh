#!/bin/bash
# SIGINT or SIGTERM during `stackbench bonnie` (in its block writes, and in
# its file tests): it stops, removes its Bonnie.* files and exits 130, as
# README's exit-code table says. Needs root (bonnie's -u rule).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test bonnie-signal --root --shm
# on disk, not in TMP's tmpfs: the block writes must outlast the wait below
D=$(mktemp -d /var/tmp/sb-bonnie-signal.XXXXXX)
sb_cleanup_hook() { rm -rf "$D"; }

# interrupt SIG WHAT ARGS...: start bonnie, wait until Bonnie.* appears,
# then a moment more, then SIG; checks the exit code and the leftovers.
# (A background job of a script starts with SIGINT ignored; stackbench's
# handler replaces that, as the run pipeline's does.)
interrupt() {
	local sig=$1 what=$2 pid rc before=$sb_fails
	shift 2
	"$SB" bonnie -d "$D" -u root -q "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sb_wait_until "$pid" 30 compgen -G "$D/Bonnie.*" >/dev/null ||
		{ fail "$what: bonnie wrote nothing: $(cat "$TMP/err")"; sb_reap KILL "$pid"; return; }
	sleep 0.3
	sb_signal_wait "$sig" "$pid" 20
	rc=$?
	[ "$sb_late" = 0 ] || fail "$what: still running 20 s after SIG$sig"
	[ "$rc" = 130 ] || fail "$what: exit $rc after SIG$sig, want 130: $(tail -2 "$TMP/err")"
	[ -z "$(ls -A "$D")" ] || fail "$what: left behind: $(ls -A "$D")"
	[ -s "$TMP/out" ] && fail "$what: printed a result after SIG$sig: $(cat "$TMP/out")"
	[ "$sb_fails" = "$before" ] && ok "SIG$sig in $what: exit 130, nothing left"
}

# 4 GiB of block writes take far longer than the wait above
interrupt INT "block writes" -s 4096 -r 24 -n 0
interrupt TERM "file tests" -s 0 -n 64
sb_end
