#!/bin/bash
# Side-by-side: `stackbench job` vs Debian's fio, the same fio command line
# for both, on the same loop device (backed by a file in /dev/shm, so the
# device is not the bottleneck), in the same run, alternating which goes
# first, ROUNDS rounds; prints every run and the ratio stackbench/fio of the
# medians for each figure.
# Targets (issue 10): 4 KiB randread QD32 IOPS >= 1.00x fio; 1 MiB sequential
# read and write bandwidth >= 0.97x; QD1 4 KiB read p50 and p99 completion
# latency within 5 % (ratio 0.95-1.05). A benchmark, not a pass/fail test:
# on a shared machine read the spread of the runs before the ratio.
# usage: tests/bench/fio-compare.sh [ROUNDS=3] [RUNTIME_S=4]   (needs root)
# SB_JOB_ARGS adds options to every stackbench run (e.g. "--iodepth_batch=1").
set -euo pipefail
ROUNDS=${1:-3}
RT=${2:-4}
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
echo "target: $LOOP on $IMG ($SIZE), rounds=$ROUNDS, runtime=${RT}s each, load: $(cut -d' ' -f1-3 /proc/loadavg)"

# name | fio options | figures (dir.key, key = iops | bw_bytes | p50 | p99)
JOBS=(
	"randread4k_qd32|--rw=randread --bs=4k --iodepth=32|read.iops"
	"seqread1m_qd8|--rw=read --bs=1m --iodepth=8|read.bw_bytes"
	"seqwrite1m_qd8|--rw=write --bs=1m --iodepth=8|write.bw_bytes"
	"read4k_qd1|--rw=read --bs=4k --iodepth=1|read.p50 read.p99"
)
common() { echo "--name=cmp --filename=$LOOP --ioengine=libaio --direct=1 --runtime=$RT --time_based --output-format=json"; }
figs() { # figures... < json
	python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
out = []
for f in sys.argv[1:]:
    d, k = f.split(".")
    if k in ("p50", "p99"):
        out.append(j[d]["clat_ns"]["percentile"]["%f" % float(k[1:])])
    else:
        out.append(j[d][k])
print(" ".join(str(x) for x in out))' "$@"
}
# shellcheck disable=SC2046,SC2086
run_sb() { "$SB" -q job --destroy-data="$LOOP" $(common) $1 ${SB_JOB_ARGS:-} | figs $2; }
# shellcheck disable=SC2046,SC2086
run_fio() { fio $(common) $1 | figs $2; }

printf "%-16s %-13s %-5s %16s %16s %8s\n" job figure round stackbench fio ratio
summary=()
for spec in "${JOBS[@]}"; do
	IFS='|' read -r name opts figures <<<"$spec"
	declare -A sbv=() fiov=()
	for r in $(seq 1 "$ROUNDS"); do
		if (( r % 2 )); then
			a=$(run_sb "$opts" "$figures"); b=$(run_fio "$opts" "$figures")
		else
			b=$(run_fio "$opts" "$figures"); a=$(run_sb "$opts" "$figures")
		fi
		read -r -a av <<<"$a"; read -r -a bv <<<"$b"
		i=0
		for f in $figures; do
			sbv[$f]+="${av[$i]} "; fiov[$f]+="${bv[$i]} "
			printf "%-16s %-13s %-5s %16.0f %16.0f %8.3f\n" "$name" "$f" "$r" "${av[$i]}" "${bv[$i]}" \
				"$(python3 -c "print(${av[$i]}/${bv[$i]})")"
			i=$((i + 1))
		done
	done
	for f in $figures; do
		summary+=("$(python3 - "$name" "$f" "${sbv[$f]}" "${fiov[$f]}" <<'PY'
import sys, statistics as st
name, f = sys.argv[1], sys.argv[2]
a = [float(x) for x in sys.argv[3].split()]; b = [float(x) for x in sys.argv[4].split()]
ma, mb = st.median(a), st.median(b)
runs = lambda v: ", ".join(f"{x:,.0f}" for x in v)
print(f"{name:16s} {f:13s} stackbench [{runs(a)}] median {ma:,.0f}; fio [{runs(b)}] median {mb:,.0f}; ratio {ma/mb:.3f}")
PY
)")
	done
	unset sbv fiov
done
echo
echo "medians (load now: $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '%s\n' "${summary[@]}"
