#!/bin/bash
# fio's verify=<type> across the two tools (runtime: about 3 s of CPU, 16 s
# wall on the loaded 2-core build machine): for md5, crc32c and meta (with verify_pattern), fio 3.33 writes a file that
# `stackbench job --verify_only` checks, and stackbench writes one that fio
# --verify_only checks (and fio's read job too); one byte changed in block
# 37 is then caught by both, each naming that block's offset. A stackbench
# write job checks its own writes (do_verify, verify_backlog, loops);
# verify_dump writes the bad block as read and as written.
# Files in /dev/shm, buffered (both tools' default); needs fio and root.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio-verify
command -v fio >/dev/null || { fail "fio not installed"; exit; }
cd "$TMP" || exit

common=(--name=v --size=1m --bs=4k --rw=randwrite)
bad_off=$((37 * 4096))

# the JSON's read bytes of stackbench's report in $1
read_bytes() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["io_bytes"])' "$1"; }

for t in md5 crc32c meta; do
	extra=()
	[ $t = meta ] && extra=(--verify_pattern=0xaa555aa5)
	# fio writes, stackbench checks
	fio "${common[@]}" --filename=fio.$t --verify=$t "${extra[@]}" --do_verify=0 --verify_state_save=0 \
		--output=/dev/null || fail "$t: fio's write failed"
	"$SB" -q job "${common[@]}" --filename=fio.$t --verify=$t "${extra[@]}" --verify_only=1 \
		--output-format=json --output=sb.json 2>err.txt || fail "$t: stackbench rejects fio's blocks: $(cat err.txt)"
	[ "$(read_bytes sb.json)" = $((1 << 20)) ] || fail "$t: stackbench's verify_only read $(read_bytes sb.json) bytes"
	# stackbench writes, fio checks (verify_only, and a read job)
	"$SB" -q job "${common[@]}" --filename=sb.$t --verify=$t "${extra[@]}" --do_verify=0 2>err.txt ||
		fail "$t: stackbench's write failed: $(cat err.txt)"
	fio "${common[@]}" --filename=sb.$t --verify=$t "${extra[@]}" --verify_only=1 --verify_state_save=0 \
		--output=fio.txt >/dev/null 2>&1 || fail "$t: fio rejects stackbench's blocks: $(cat fio.txt)"
	[ $t = md5 ] && { fio --name=v --size=1m --bs=4k --rw=read --filename=sb.$t --verify=$t --output=fio.txt \
		>/dev/null 2>&1 || fail "$t: fio's read job rejects stackbench's blocks: $(cat fio.txt)"; }
	# one byte changed: data (md5, crc32c; meta: its pattern); both name block 37
	for f in fio.$t sb.$t; do
		printf '\x5c' | dd of=$f bs=1 seek=$((bad_off + 1000)) conv=notrunc status=none
		"$SB" -q job "${common[@]}" --filename=$f --verify=$t "${extra[@]}" --verify_only=1 >/dev/null 2>err.txt &&
			fail "$t: stackbench missed the corrupted block of $f"
		grep -q "at file $f offset $bad_off," err.txt || fail "$t: stackbench's message on $f: $(cat err.txt)"
		fio "${common[@]}" --filename=$f --verify=$t "${extra[@]}" --verify_only=1 --verify_state_save=0 \
			--output=fio.txt >fio.err 2>&1 && fail "$t: fio missed the corrupted block of $f"
		grep -q "verify failed at file $f offset $bad_off," fio.txt fio.err ||
			fail "$t: fio's message on $f: $(cat fio.txt fio.err)"
	done
done

# a header changed (meta without a pattern checks only the header): both catch it
fio "${common[@]}" --filename=hdr --verify=meta --do_verify=0 --verify_state_save=0 --output=/dev/null
printf '\x01' | dd of=hdr bs=1 seek=$((bad_off + 16)) conv=notrunc status=none
"$SB" -q job "${common[@]}" --filename=hdr --verify=meta --verify_only=1 >/dev/null 2>err.txt &&
	fail "meta: stackbench missed the changed header"
grep -q "bad header offset .* at file hdr offset $bad_off," err.txt || fail "meta header: $(cat err.txt)"
fio "${common[@]}" --filename=hdr --verify=meta --verify_only=1 --verify_state_save=0 --output=fio.txt \
	>fio.err 2>&1 && fail "meta: fio missed the changed header"
grep -q "bad header offset" fio.txt fio.err || fail "meta header, fio: $(cat fio.txt fio.err)"

# verify_dump: the bad block as read, and as written (regenerated from its header), named as fio's
fio "${common[@]}" --filename=dump --verify=md5 --do_verify=0 --verify_state_save=0 --output=/dev/null
dd if=dump of=block37 bs=4k skip=37 count=1 status=none
printf '\x5c' | dd of=dump bs=1 seek=$((bad_off + 1000)) conv=notrunc status=none
"$SB" -q job "${common[@]}" --filename=dump --verify=md5 --verify_only=1 --verify_dump=1 >/dev/null 2>&1 &&
	fail "verify_dump: the corrupted block was not caught"
cmp -s dump.$bad_off.expected block37 || fail "verify_dump: dump.$bad_off.expected is not the block as fio wrote it"
cmp -s dump.$bad_off.received <(dd if=dump bs=4k skip=37 count=1 status=none) ||
	fail "verify_dump: dump.$bad_off.received is not the block as read"

# stackbench checks its own writes: after them, with a backlog, after every loop
"$SB" -q job "${common[@]}" --filename=own --verify=crc32c --output-format=json --output=sb.json 2>err.txt ||
	fail "write+verify: $(cat err.txt)"
[ "$(read_bytes sb.json)" = $((1 << 20)) ] || fail "write+verify read $(read_bytes sb.json) bytes back"
"$SB" -q job "${common[@]}" --filename=own --verify=md5 --verify_backlog=16 --loops=2 --output-format=json \
	--output=sb.json 2>err.txt || fail "backlog+loops: $(cat err.txt)"
[ "$(read_bytes sb.json)" = $((2 << 20)) ] || fail "backlog+loops read $(read_bytes sb.json) bytes back"

[ $FAILED = 0 ] && echo "PASS: job_fio_verify"
