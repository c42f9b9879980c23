#!/bin/bash
# fio's own job files under `stackbench job`: the count over the committed
# corpus (tests/fio-examples, fio 3.33's examples/ and t/jobs/), each file
# as a small copy (tests/fio-examples/README.md "The overlay"). Prints
# "rc FILE MANIFEST-STATUS first-refusal" per file and "N of M run" (M: the
# files not marked hardware). Not in CI: the CI test is
# tests/integration/host/job_fio_examples.sh, which also compares with fio.
# usage: tests/bench/fio-examples.sh [--derive] [OUTDIR]
#   --derive: also print, for every file that does not run, the MANIFEST
#   line as main's behaviour makes it today: every option refused, found by
#   removing the refused option's lines from the copy and trying again.
# SB_BIN picks the binary (default build/stackbench).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/fio-examples/lib.sh"
SB=$(readlink -f "${SB_BIN:-$ROOT/build/stackbench}")
derive=0
[ "${1:-}" = --derive ] && { derive=1; shift; }
OUT=${1:-$(mktemp -d /tmp/fio-examples.XXXXXX)}
mkdir -p "$OUT"
: >"$OUT/results.txt"

# try DIR: run the copy in DIR; prints the refused option (or message), rc
try() {
	(cd "$1" && timeout 60 "$SB" -q job job.fio >out.txt 2>err.txt)
}

ran=0 total=0
while read -r status file rest; do
	[ "$status" = hardware ] && continue
	total=$((total + 1))
	d=$OUT/w/${file%.fio}
	rm -rf "$d" && mkdir -p "$d"
	fex_overlay "$FEX_DIR/$file" "$d/job.fio"
	try "$d"; rc=$?
	why=""; [ $rc = 0 ] && ran=$((ran + 1)) || why=$(fex_refusal "$d/err.txt")
	echo "$rc $file $status $why" | tee -a "$OUT/results.txt"
	if [ $derive = 1 ] && [ $rc != 0 ]; then
		opts=$why
		for _ in $(seq 20); do
			[ -n "$why" ] && [[ "$why" =~ ^[A-Za-z0-9_-]+$ ]] || break
			sed -i -E "/^\s*${why}\s*(=|$|[;#])/d" "$d/job.fio"
			try "$d" && break
			why=$(fex_refusal "$d/err.txt")
			[[ ",$opts," == *",$why,"* ]] && break
			opts="$opts,$why"
		done
		echo "DERIVED refused $file $opts" | tee -a "$OUT/results.txt"
	fi
	find "$d" -mindepth 1 ! -name '*.txt' ! -name job.fio -delete 2>/dev/null
done < <(fex_manifest)
echo "$ran of $total run ($OUT/results.txt)"
