#!/bin/bash
# The LUKS key never leaves locked, non-dumpable memory:
#  1. build-and-test -vv paused (STACKBENCH_TEST_PAUSE_AT=luks:key) while
#     stackbench holds the passphrase and the mapping is open. The volume key
#     is read from the kernel (dmsetup table --showkeys; LUKS1 so it is in
#     the table in hex rather than in the kernel keyring) and searched, hex
#     and binary, in /proc/PID/cmdline and environ, the state dir, the loop
#     backing dir's non-device files; then the run goes on (the test removes
#     the pause mark) and the results files and stackbench's stdout/stderr
#     are searched too. A control search proves the search finds the key
#     where it is (the table dump).
#  2. core dumps: core_pattern to a temp dir, `ulimit -c unlimited`, SIGSEGV
#     to stackbench paused while libcryptsetup holds the freshly made volume
#     key (luks:dm:extra) and while the passphrase is held (luks:key): no
#     core file. Control: a `sleep` gets SIGSEGV the same way and does dump
#     core. core_pattern is restored afterwards.
#   scripts/uml-run.sh -- tests/integration/uml/secrets_key.sh
set -u
. "$(dirname "$0")/layers_lib.sh"
SIZE=${SB_CRASH_LOOP_SIZE:-96MiB}
sets=(--set devices.loop.size="$SIZE" --set devices.loop.dir="$work"
      --set luks.type=luks1 --set luks.sector_size=512)
mark=$state/.paused
luksf=$root/stacks/luks4096.yml
tmp=$(mktemp -d /tmp/sb-secrets.XXXXXX)
old_pattern=$(cat /proc/sys/kernel/core_pattern)
old_suid=$(cat /proc/sys/fs/suid_dumpable)
restore() {
	umount "$tmp/cores" 2>/dev/null
	echo "$old_pattern" > /proc/sys/kernel/core_pattern
	echo "$old_suid" > /proc/sys/fs/suid_dumpable
}
trap 'restore; rm -rf "$tmp"; cleanup; exit $?' EXIT

wait_mark() { # PID
	local i
	for ((i = 0; i < 3000; i++)); do
		[ -e "$mark" ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# has_key FILE...: prints the files containing the key, hex (any case) or raw
has_key() {
	python3 - "$key" "$@" <<'PY'
import sys, binascii
hexkey = sys.argv[1].lower()
raw = binascii.unhexlify(hexkey)
for path in sys.argv[2:]:
    try:
        data = open(path, 'rb').read()
    except OSError:
        continue
    if raw in data or hexkey.encode() in data.lower():
        print(path)
PY
}

# 1. key search
echo "# 1. where the key is not"
res=$tmp/results
rm -f "$mark"
STACKBENCH_TEST_PAUSE_AT=luks:key STACKBENCH_TEST_PAUSE_MARK=$mark \
	"$SB" -vv build-and-test "${sets[@]}" --set bench.suites=[quick] --set bench.size=8MiB \
	--results "$res" "$luksf" > "$tmp/stdout" 2> "$tmp/stderr" &
pid=$!
if wait_mark "$pid"; then
	table=$(dmsetup table --showkeys sb-luks4096-crypt)
	key=$(awk '{print $5}' <<<"$table")
	if [[ $key =~ ^[0-9a-f]{128}$ ]]; then ok "volume key read from the kernel (512 bits)"
	else bad "no hex key in the table: $table"; key=00; fi
	printf '%s\n' "$table" > "$tmp/control"
	[ -n "$(has_key "$tmp/control")" ] && ok "control: the search finds the key in the table dump" ||
		bad "control: the search does not find the key"
	tr '\0' '\n' < "/proc/$pid/cmdline" > "$tmp/cmdline"
	tr '\0' '\n' < "/proc/$pid/environ" > "$tmp/environ"
	[ -s "$tmp/cmdline" ] && [ -s "$tmp/environ" ] || bad "could not read cmdline/environ of $pid"
	found=$(has_key "$tmp/cmdline" "$tmp/environ")
	[ -z "$found" ] && ok "key not in /proc/$pid/cmdline or environ" || bad "key in: $found"
	found=$(has_key $(find "$state" "$work" -type f ! -regex '.*/d[0-9]+$'))
	[ -z "$found" ] && ok "key not in the state dir or the loop dir's non-device files ($(find "$state" "$work" -type f ! -regex '.*/d[0-9]+$' | wc -l) files)" ||
		bad "key in: $found"
	rm -f "$mark"   # let the run go on: bench, teardown, results
else
	bad "build-and-test never reached luks:key"; key=00
fi
for ((i = 0; i < 1800; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { bad "build-and-test did not finish"; kill -9 "$pid"; }
wait "$pid"; rc=$?
check "build-and-test exit" 0 "$rc"
[ $rc = 0 ] || tail -5 "$tmp/stderr"
nres=$(find "$res" -type f 2>/dev/null | wc -l)
[ "$nres" -gt 0 ] && ok "$nres results file(s) written" || bad "no results file"
grep -q "luks" "$tmp/stderr" && [ "$(wc -l < "$tmp/stderr")" -gt 10 ] && ok "stderr log has $(wc -l < "$tmp/stderr") lines (-vv)" ||
	bad "stderr log too short to mean anything"
found=$(has_key "$tmp/stdout" "$tmp/stderr" $(find "$res" -type f 2>/dev/null))
[ -z "$found" ] && ok "key not in stdout, stderr (-vv) or the results" || bad "key in: $found"
assert_clean "key search run"

# 2. core dumps
echo "# 2. core dumps"
mkdir -p "$tmp/cores"
# on tmpfs: the throwaway kernel cannot write a core file to hostfs
mount -t tmpfs -o size=256m sbcores "$tmp/cores" || bad "cannot mount a tmpfs for core files"
echo "$tmp/cores/core.%e.%p" > /proc/sys/kernel/core_pattern
# PR_SET_DUMPABLE 0 means "no core" under the kernel's default
# fs.suid_dumpable=0 (2 would dump non-dumpable processes root-only)
echo 0 > /proc/sys/fs/suid_dumpable
bash -c 'ulimit -c unlimited; exec sleep 600' &
spid=$!
for ((i = 0; i < 100; i++)); do [ "$(cat /proc/$spid/comm 2>/dev/null)" = sleep ] && break; sleep 0.1; done
kill -SEGV "$spid"; wait "$spid"
sleep 0.5
if ls "$tmp/cores" | grep -q "\.$spid\$"; then ok "control: sleep dumps core into $tmp/cores"
else bad "control: no core from sleep (core dumps do not work here; the check below means nothing)"; fi
rm -f "$tmp/cores"/*
for point in luks:dm:extra luks:key; do
	rm -f "$mark"
	(ulimit -c unlimited
	 STACKBENCH_TEST_PAUSE_AT=$point STACKBENCH_TEST_PAUSE_MARK=$mark \
		exec "$SB" build "${sets[@]}" "$luksf" > "$tmp/core.log" 2>&1) &
	pid=$!
	if wait_mark "$pid"; then
		kill -SEGV "$pid"; wait "$pid"; rc=$?
		check "$point: stackbench killed by SIGSEGV" 139 "$rc"
		sleep 0.5
		if [ -z "$(ls -A "$tmp/cores")" ]; then ok "$point: no core file while the key is held"
		else bad "$point: core file written: $(ls "$tmp/cores")"; fi
	else
		bad "$point: build never reached it"; kill -9 "$pid" 2>/dev/null; wait "$pid"
	fi
	rm -f "$tmp/cores"/*
	"$SB" teardown --all > /dev/null 2>&1 || bad "$point: teardown failed"
	assert_clean "core dump at $point"
done
restore
check "core_pattern restored" "$old_pattern" "$(cat /proc/sys/kernel/core_pattern)"
check "suid_dumpable restored" "$old_suid" "$(cat /proc/sys/fs/suid_dumpable)"
