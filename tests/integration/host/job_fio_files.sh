#!/bin/bash
# stackbench job on fio's regular-file targets:
# a file whose size does not fit the free space of its filesystem is
# refused before it is created or grown (as a directory target is).
# (fio's option names: tests/unit/test_jobfile.c.) Needs root (a tmpfs).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio-files
mkdir "$TMP/m"
mount -t tmpfs -o size=16m tmpfs "$TMP/m" || { fail "mount tmpfs"; exit; }

"$SB" job --filename="$TMP/m/f" --size=1g --rw=write >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" != 0 ] && grep -q "free, the job needs" "$TMP/err" ||
	fail "a 1 GiB file on a 16 MiB filesystem: exit $rc: $(cat "$TMP/err")"
[ -e "$TMP/m/f" ] && fail "the refused file was created ($(stat -c %s "$TMP/m/f") bytes)"
truncate -s 1m "$TMP/m/g"
"$SB" job --filename="$TMP/m/g" --size=1g --rw=write >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" != 0 ] && grep -q "free, the job needs" "$TMP/err" || fail "growing a file past the free space: exit $rc"
[ "$(stat -c %s "$TMP/m/g")" = 1048576 ] || fail "the refused file grew to $(stat -c %s "$TMP/m/g")"
[ "$(du -k "$TMP/m/g" | cut -f1)" = 0 ] || fail "the refused file was laid out"
"$SB" job --filename="$TMP/m/g" --size=4m --rw=write >/dev/null 2>"$TMP/err" || fail "4 MiB that fit: $(cat "$TMP/err")"

