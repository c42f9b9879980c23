#!/bin/bash
# Verify over a loop device: a write+read-back verify job passes; data
# written by one job verifies in a later read job; a few bytes changed in
# the backing file between the write and the read are caught (non-zero
# exit, the offset in the message); a wrong generation is caught too.
# Runs on this kernel (plain loop, no md/dm); needs root. Write jobs on a
# block device name it with --destroy-data (the safety check of issue 12).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test bench-verify --root --shm

truncate -s 64M "$TMP/img"
LOOP=$(losetup -f --show "$TMP/img") || { fail "losetup"; exit; }

# 1. one job writes everything, reads it back and checks it
out=$("$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --destroy-data="$LOOP" --rw write --bs 64k --iodepth 8 --size 32M --verify \
	--verify-seed 42 2>&1) || fail "write+verify job failed: $out"
echo "$out" | grep -q "verify: 512 blocks checked, 0 errors" || fail "write+verify: unexpected output: $out"

# 2. a later random read job checks the same data and generation
out=$("$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --rw randread --bs 64k --iodepth 16 --size 32M --verify \
	--verify-seed 42 2>&1) || fail "read verify of intact data failed: $out"

# 3. random writes (every block once) verify too, on another region
"$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --destroy-data="$LOOP" --rw randwrite --bs 4k --iodepth 32 --size 32M --numjobs 2 --verify \
	--verify-seed 9 >/dev/null 2>&1 || fail "randwrite+verify failed"
"$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --rw read --bs 4k --iodepth 32 --size 32M --numjobs 2 --verify \
	--verify-seed 9 >/dev/null 2>&1 || fail "read verify after randwrite failed"

# rewrite the seed-42 data for the corruption test
"$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --destroy-data="$LOOP" --rw write --bs 64k --iodepth 8 --size 32M --verify \
	--verify-seed 42 >/dev/null 2>&1 || fail "rewrite failed"

# 4. a wrong generation is stale data
out=$("$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --rw read --bs 64k --size 32M --verify --verify-seed 43 2>&1)
rc=$?
[ $rc -ne 0 ] || fail "stale generation not caught"
echo "$out" | grep -q "generation 42, expected 43" || fail "stale message: $out"

# 5. corrupt 4 bytes inside block 77 (offset 77*64KiB + 1000) behind the loop device's back
off=$((77 * 65536 + 1000))
printf 'XXXX' | dd of="$TMP/img" bs=1 seek=$off conv=notrunc status=none
sync
echo 1 > /proc/sys/vm/drop_caches 2>/dev/null || true
out=$("$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --rw read --bs 64k --iodepth 4 --size 32M --verify --verify-seed 42 2>&1)
rc=$?
[ $rc -ne 0 ] || fail "corrupted block was not caught (exit 0): $out"
echo "$out" | grep -q "verify FAILED: $LOOP offset $((77 * 65536)) .*checksum mismatch" ||
	fail "corruption message lacks the block offset: $out"

# 6. a block that was never written by a verify job
dd if=/dev/urandom of="$TMP/img" bs=64k seek=100 count=1 conv=notrunc status=none
out=$("$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --rw read --bs 64k --size 8M --verify 2>&1)
rc=$?
[ $rc -ne 0 ] || fail "overwritten block 100 not caught"

sb_end
