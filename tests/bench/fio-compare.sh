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
# Every run also shows what it moved, so a ratio is checked to compare like
# with like: the bytes of the measured window and its length (fio's
# io_bytes and runtime), and the requests the loop device completed and
# merged in the whole run (/sys/block/loopN/stat: reads, read merges,
# writes, write merges) - more bytes per device request means the block
# layer merged the tool's ios.
# usage: tests/bench/fio-compare.sh [ROUNDS=3] [RUNTIME_S=4]   (needs root)
# SB_JOB_ARGS adds options to every stackbench run (e.g. "--iodepth_batch=8");
# SB_FIO_JOBS=name,name picks jobs (names below).
set -euo pipefail
ROUNDS=${1:-3}
RT=${2:-4}
SB=${SB_BIN:-$(dirname "$0")/../../build/stackbench}
SIZE=${SB_FIO_SIZE:-1G}
IMG=$(mktemp /dev/shm/sb-fio-compare.XXXXXX)
LOOP=
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
	rm -f "$IMG" "$IMG".*
}
trap cleanup EXIT INT TERM
truncate -s "$SIZE" "$IMG"
# fill it so reads hit real pages of the tmpfs file, not holes
dd if=/dev/urandom of="$IMG" bs=1M count=$(( $(stat -c %s "$IMG") >> 20 )) conv=notrunc status=none
LOOP=$(losetup -f --show --direct-io=off "$IMG")
STAT=/sys/block/${LOOP#/dev/}/stat
echo "target: $LOOP on $IMG ($SIZE), rounds=$ROUNDS, runtime=${RT}s each, load: $(cut -d' ' -f1-3 /proc/loadavg)"

# name | fio options | figures (dir.key, key = iops | bw_bytes | p50 | p99)
JOBS=(
	"randread4k_qd32|--rw=randread --bs=4k --iodepth=32|read.iops"
	"seqread1m_qd8|--rw=read --bs=1m --iodepth=8|read.bw_bytes"
	"seqwrite1m_qd8|--rw=write --bs=1m --iodepth=8|write.bw_bytes"
	"read4k_qd1|--rw=read --bs=4k --iodepth=1|read.p50 read.p99"
)
common() { echo "--name=cmp --filename=$LOOP --ioengine=libaio --direct=1 --runtime=$RT --time_based --output-format=json"; }
devstat() { local r rm w wm x; read -r r rm x x w wm x <"$STAT"; echo "$r $rm $w $wm"; }
# run TOOL...: prints the figures, the window (bytes, ms) and the device's
# request deltas (reads, read merges, writes, write merges)
measure() { # figures -- command...
	local figures=$1 a b; shift 2
	a=$(devstat)
	"$@" >"$IMG.json"
	b=$(devstat)
	python3 - "$figures" "$a" "$b" "$IMG.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[4]))["jobs"][0]
out = []
for f in sys.argv[1].split():
    d, k = f.split(".")
    if k in ("p50", "p99"):
        out.append(j[d]["clat_ns"]["percentile"]["%f" % float(k[1:])])
    else:
        out.append(j[d][k])
d = sys.argv[1].split()[0].split(".")[0]
out += [j[d]["io_bytes"], j[d]["runtime"]]
out += [int(y) - int(x) for x, y in zip(sys.argv[2].split(), sys.argv[3].split())]
print(" ".join(str(x) for x in out))
PY
}
# shellcheck disable=SC2046,SC2086
run_sb() { measure "$2" -- "$SB" -q job --destroy-data="$LOOP" $(common) $1 ${SB_JOB_ARGS:-}; }
# shellcheck disable=SC2046,SC2086
run_fio() { measure "$2" -- fio $(common) $1; }

printf "%-16s %-14s %-3s %14s %14s %7s | %-38s | %-38s\n" job figure rnd stackbench fio ratio \
	"stackbench: MiB/ms-window, dev r/rm/w/wm" "fio: same"
summary=()
for spec in "${JOBS[@]}"; do
	IFS='|' read -r name opts figures <<<"$spec"
	[ -n "${SB_FIO_JOBS:-}" ] && [[ ",$SB_FIO_JOBS," != *",$name,"* ]] && continue
	declare -A sbv=() fiov=()
	nf=$(wc -w <<<"$figures")
	for r in $(seq 1 "$ROUNDS"); do
		if (( r % 2 )); then
			a=$(run_sb "$opts" "$figures"); b=$(run_fio "$opts" "$figures")
		else
			b=$(run_fio "$opts" "$figures"); a=$(run_sb "$opts" "$figures")
		fi
		read -r -a av <<<"$a"; read -r -a bv <<<"$b"
		win() { local v=("$@"); printf "%6.0f MiB/%5s ms %s/%s/%s/%s" "$(python3 -c "print(${v[$nf]}/1048576)")" \
			"${v[$((nf + 1))]}" "${v[$((nf + 2))]}" "${v[$((nf + 3))]}" "${v[$((nf + 4))]}" "${v[$((nf + 5))]}"; }
		i=0
		for f in $figures; do
			sbv[$f]+="${av[$i]} "; fiov[$f]+="${bv[$i]} "
			printf "%-16s %-14s %-3s %14.0f %14.0f %7.3f | %-38s | %-38s\n" "$name" "$f" "$r" "${av[$i]}" "${bv[$i]}" \
				"$(python3 -c "print(${av[$i]}/${bv[$i]})")" "$(win "${av[@]}")" "$(win "${bv[@]}")"
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
# and the median of each round's own ratio: the two tools of a round ran
# minutes apart at most, so it is the less drift-bound estimate
pr = st.median(x / y for x, y in zip(a, b))
print(f"{name:16s} {f:14s} stackbench [{runs(a)}] median {ma:,.0f}; fio [{runs(b)}] median {mb:,.0f}; ratio {ma/mb:.3f}; median of the rounds' ratios {pr:.3f}")
PY
)")
	done
	unset sbv fiov
done
echo
echo "medians (load now: $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '%s\n' "${summary[@]}"
