#!/bin/bash
# Teardown while another process holds the stack, and builds over leftovers:
#  1. a process with its cwd in the mountpoint: teardown fails in bounded
#     time, exit 4, naming the process (pid and comm), leaves the rest
#     recorded; after the holder exits a second teardown leaves nothing;
#  2. a process holding /dev/mapper/sb-...-crypt open (nothing mounted,
#     after a kill -9): same;
#  3. build refuses (exit 4, says how to clean up) while the state file of
#     an earlier unfinished run exists, and creates nothing;
#  4. build refuses when the state file is gone but the md array / dm
#     device of an earlier run still exist, and touches neither.
#   scripts/uml-run.sh -- tests/integration/uml/crash_busy.sh
set -u
. "$(dirname "$0")/layers_lib.sh"
crash_vars
holder=

stop_holder() { [ -n "$holder" ] && kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=; }
trap 'stop_holder; cleanup; exit $?' EXIT

busy_case() { # NAME COMM
	local name=$1 comm=$2 out rc t0 secs
	t0=$(date +%s)
	out=$(timeout -k 5 180 "$SB" teardown --all 2>&1); rc=$?
	secs=$(( $(date +%s) - t0 ))
	echo "$out" | sed 's/^/    | /' | tail -6
	check "$name: teardown while held: exit code (busy)" 4 "$rc"
	[ $secs -le 90 ] && ok "$name: gave up in ${secs}s" || bad "$name: took ${secs}s"
	if grep -Eq "(pid|process) $holder \($comm\)" <<<"$out"; then ok "$name: message names pid $holder ($comm)"
	else bad "$name: message does not name pid $holder ($comm)"; fi
	[ -e "$state/luks4096.state" ] && ok "$name: state kept for the next teardown" || bad "$name: state file gone"
	stop_holder
	out=$("$SB" teardown --all 2>&1); rc=$?
	check "$name: second teardown after the holder exited: exit" 0 "$rc"
	[ $rc = 0 ] || echo "$out" | sed 's/^/    | /'
	assert_clean "$name"
}

# 1. cwd in the mountpoint
echo "# 1. a process in the mountpoint"
if "$SB" build "${sets[@]}" "$luksf" > "$state/.build.log" 2>&1; then
	mnt=$(mountpoint_of luks4096)
	(cd "$mnt" && exec sleep 600) &
	holder=$!
	sleep 0.3
	busy_case "cwd in mountpoint" sleep
else
	bad "build failed"; cat "$state/.build.log"
fi

# 2. the crypt device held open by a shell, nothing mounted
echo "# 2. a process holding the dm-crypt device open"
if build_kill "$luksf" after:luks; then
	bash -c 'exec 3</dev/mapper/sb-luks4096-crypt; exec sleep 600' &
	holder=$!
	sleep 0.3
	busy_case "crypt device open" sleep
else
	bad "build never reached after:luks"; cat "$state/.build.log"
fi

# 3. state file of an unfinished run present
echo "# 3. leftover state file"
if build_kill "$luksf" after:md; then
	before=$(ls /sys/block | sort)
	out=$("$SB" build "${sets[@]}" "$luksf" 2>&1); rc=$?
	echo "$out" | sed 's/^/    | /'
	check "state present: build exit" 4 "$rc"
	grep -q "stackbench teardown luks4096" <<<"$out" && ok "state present: says how to clean up" ||
		bad "state present: no cleanup advice"
	check "state present: no new block devices" "$before" "$(ls /sys/block | sort)"
	"$SB" teardown --all >/dev/null 2>&1 || bad "state present: teardown failed"
	assert_clean "state present"
else
	bad "build never reached after:md"
fi

# 4. state file gone, objects still there
echo "# 4. leftover objects without a state file"
for point in after:md after:luks; do
	if build_kill "$luksf" "$point"; then
		cp "$state/luks4096.state" "$state/.saved"
		rm -f "$state/luks4096.state"
		before=$(ls /sys/block | sort)
		out=$("$SB" build "${sets[@]}" "$luksf" 2>&1); rc=$?
		echo "$out" | sed 's/^/    | /'
		check "no state, killed at $point: build exit" 4 "$rc"
		grep -q "earlier" <<<"$out" && grep -q "sb-luks4096" <<<"$out" &&
			ok "no state, $point: message names the leftover" || bad "no state, $point: message"
		check "no state, $point: nothing created or removed" "$before" "$(ls /sys/block | sort)"
		[ -e "$state/luks4096.state" ] && bad "no state, $point: refused build left a state file"
		mv "$state/.saved" "$state/luks4096.state"
		"$SB" teardown --all >/dev/null 2>&1 || bad "no state, $point: teardown failed"
		assert_clean "no state, $point"
	else
		bad "build never reached $point"
	fi
done
