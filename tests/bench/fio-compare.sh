#!/bin/bash
# Side-by-side: stackbench job vs Debian's fio on the same loop device (backed
# by a file in /dev/shm, so the device is not the bottleneck), alternating,
# N rounds. Prints every run and the ratio stackbench/fio of the medians.
# Targets (issue 4): 4 KiB randread QD32 IOPS >= 1.0x fio; 1 MiB sequential
# read/write bandwidth within 3%. A benchmark, not a pass/fail test: the
# machine is shared, so read the spread before the ratio.
# usage: tests/bench/fio-compare.sh [ROUNDS] [RUNTIME_S]   (needs root)
# SB_JOB_ARGS adds options to every stackbench run (e.g. "--iodepth-batch 1",
# fio's default of one io per io_submit).
set -euo pipefail
ROUNDS=${1:-3}
RT=${2:-5}
SB=${SB_BIN:-$(dirname "$0")/../../build/stackbench}
SIZE=${SB_FIO_SIZE:-1G}
IMG=$(mktemp /dev/shm/sb-fio-compare.XXXXXX)
LOOP=
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
	rm -f "$IMG"
}
trap cleanup EXIT INT TERM
truncate -s "$SIZE" "$IMG"
# fill it so reads hit real pages of the tmpfs file, not holes
dd if=/dev/urandom of="$IMG" bs=1M count=$(( $(stat -c %s "$IMG") >> 20 )) conv=notrunc status=none
LOOP=$(losetup -f --show --direct-io=off "$IMG")
echo "target: $LOOP on $IMG ($SIZE), rounds=$ROUNDS, runtime=${RT}s each"

# job name | rw | bs | iodepth | metric (iops|bw) | direction
JOBS=(
	"randread4k_qd32 randread 4k 32 iops read"
	"seqread1m_qd4 read 1m 4 bw read"
	"seqwrite1m_qd4 write 1m 4 bw write"
)

run_sb() { # rw bs qd metric dir
	# shellcheck disable=SC2086
	"$SB" -q job --target "$LOOP" --destroy-data="$LOOP" --rw "$1" --bs "$2" --iodepth "$3" --runtime "${RT}s" ${SB_JOB_ARGS:-} \
		--output-format json | python3 -c "import json,sys; j=json.load(sys.stdin)['jobs'][0]['$5']; print(j['iops'] if '$4'=='iops' else j['bw_bytes'])"
}
run_fio() {
	fio --name=cmp --filename="$LOOP" --ioengine=libaio --direct=1 --rw="$1" --bs="$2" \
		--iodepth="$3" --runtime="$RT" --time_based --output-format=json | \
		python3 -c "import json,sys; j=json.load(sys.stdin)['jobs'][0]['$5']; print(j['iops'] if '$4'=='iops' else j['bw_bytes'])"
}

printf "%-18s %-5s %16s %16s %8s\n" job round stackbench fio ratio
for spec in "${JOBS[@]}"; do
	set -- $spec
	name=$1; rw=$2; bs=$3; qd=$4; metric=$5; dir=$6
	sbv=(); fiov=()
	for r in $(seq 1 "$ROUNDS"); do
		# alternate which tool goes first, so drift hits both alike
		if (( r % 2 )); then
			a=$(run_sb "$rw" "$bs" "$qd" "$metric" "$dir"); b=$(run_fio "$rw" "$bs" "$qd" "$metric" "$dir")
		else
			b=$(run_fio "$rw" "$bs" "$qd" "$metric" "$dir"); a=$(run_sb "$rw" "$bs" "$qd" "$metric" "$dir")
		fi
		sbv+=("$a"); fiov+=("$b")
		printf "%-18s %-5s %16.0f %16.0f %8.3f\n" "$name" "$r" "$a" "$b" "$(python3 -c "print($a/$b)")"
	done
	python3 - "$name" "$metric" "${sbv[*]}" "${fiov[*]}" <<'PY'
import sys, statistics as st
name, metric = sys.argv[1], sys.argv[2]
a = [float(x) for x in sys.argv[3].split()]; b = [float(x) for x in sys.argv[4].split()]
unit = "IOPS" if metric == "iops" else "B/s"
ma, mb = st.median(a), st.median(b)
print(f"{name:18s} median stackbench {ma:,.0f} {unit}, fio {mb:,.0f} {unit}, ratio {ma/mb:.3f}")
PY
done
