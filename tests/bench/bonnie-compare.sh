#!/bin/bash
# Side-by-side: `stackbench bonnie` (the bonnie suite) vs Debian's bonnie++ 2.00a,
# the same command line (`-d DIR -c 1 -s SIZE -r MEM -n FILES -f -b -u root -q`), on
# the same ext4 on a loop device, alternating which goes first, N rounds (>= 5
# for the issue-29 target); prints each figure of both and the ratio
# stackbench/bonnie++ of the medians (target: within 10 %).
# The file is larger than the memory the tool may use: each run (warm-up
# runs too) goes into a fresh memory cgroup of its own, limited to MEM MiB
# (cgroup v2 memory.max, or v1 memory.limit_in_bytes where the memory
# controller is on a v1 hierarchy), made before the run and removed after
# it, the same limit for both tools; its page cache is charged there, so
# with SIZE > MEM most of the file cannot stay cached and rewrite and block
# input read it back from the device, as on a real machine with a file
# larger than its RAM. Defaults: a 2048 MiB file in a 1024 MiB cgroup
# (issue 29's set-up), 5 rounds, no file tests.
# The loop device's image is on /dev/shm and fully allocated (fallocate)
# before mkfs (no discard), so no run pays for the first touch of its
# memory; the image's memory is the caller's, not the cgroup's.
# Neither tool drops the page cache between phases. Figures bonnie++
# prints as "+++++" (test too short to time) are shown as n/a.
# A benchmark, not a pass/fail test. On a shared machine the figures are
# loaded ones: the alternation keeps the ratio fair, not the figures.
# usage: tests/bench/bonnie-compare.sh [ROUNDS=5] [SIZE_MiB=2048] [FILES=0]   (needs root)
# SB_BONNIE_MEM=MiB: the cgroup's limit (default SIZE/2); must be below SIZE.
#   SB_BONNIE_MEM=0: no cgroup (then -r is SIZE/2 and the kernel's RAM must
#   be below SIZE, as in the throwaway kernel below)
# SB_BONNIE_SEEKS=N: N seeks (bonnie++'s -s SIZE:CHUNK:SEEKS) instead of 8192
# SB_BONNIE_WARMUP=1: one uncounted first run of each tool (default none:
#   the fallocated image took away what it was for)
# SB_BONNIE_DEV=/dev/X: make the ext4 on that scratch block device instead
# (it is overwritten; only a ubd of the throwaway kernel is accepted), e.g.
#   scripts/uml-run.sh --mem 384M --ubd 1:1600M -- env SB_BONNIE_DEV=/dev/ubda SB_BONNIE_MEM=0 \
#       tests/bench/bonnie-compare.sh 3 512 2
# so the file is larger than the kernel's RAM and reads reach the device.
set -euo pipefail
ROUNDS=${1:-5}
SIZE=${2:-2048}
FILES=${3:-0}
MEM=${SB_BONNIE_MEM:-$((SIZE / 2))}
SB=${SB_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/build/stackbench}
TMP=$(mktemp -d "$([ -n "${SB_BONNIE_DEV:-}" ] && echo /tmp || echo /dev/shm)/sb-bonnie-compare.XXXXXX")
LOOP=
CG=
cleanup() {
	[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	mountpoint -q "$TMP/mnt" 2>/dev/null && umount "$TMP/mnt"
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
# the memory cgroup each run gets: v2 (memory.max) under the root of the
# unified hierarchy, or v1 (memory.limit_in_bytes) under this shell's own
# memory cgroup
CGV= CGBASE=
if [ "$MEM" != 0 ]; then
	(( MEM < SIZE )) || { echo "SB_BONNIE_MEM=$MEM: must be below the file's $SIZE MiB" >&2; exit 2; }
	if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		CGV=2 CGBASE=/sys/fs/cgroup
		grep -qw memory $CGBASE/cgroup.subtree_control || echo +memory >$CGBASE/cgroup.subtree_control
	elif [ -d /sys/fs/cgroup/memory ]; then
		CGV=1 CGBASE=/sys/fs/cgroup/memory$(awk -F: '$2 == "memory" {print $3}' /proc/self/cgroup)
		CGBASE=${CGBASE%/}
	else
		echo "no memory cgroup controller (v2 or v1); SB_BONNIE_MEM=0 runs without one" >&2; exit 2
	fi
fi
if [ -n "${SB_BONNIE_DEV:-}" ]; then
	case "$SB_BONNIE_DEV" in
	/dev/ubd?) ;;
	*) echo "SB_BONNIE_DEV: only a throwaway kernel's /dev/ubdX, not $SB_BONNIE_DEV" >&2; exit 2 ;;
	esac
	DEV=$SB_BONNIE_DEV; WHAT="$DEV (ubd), RAM $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB"
else
	# all of it allocated now, and not discarded by mkfs: no run touches new memory
	fallocate -l $((SIZE + SIZE / 4 + 256))M "$TMP/img"
	LOOP=$(losetup -f --show "$TMP/img")
	DEV=$LOOP; WHAT="$LOOP (backed by /dev/shm, preallocated)"
fi
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "$DEV"
mkdir "$TMP/mnt"
mount "$DEV" "$TMP/mnt"
if [ "$MEM" = 0 ]; then
	RAM=$((SIZE / 2)); LIMIT="no memory cgroup, RAM $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB"
else
	RAM=$MEM; LIMIT="each run in a fresh ${MEM} MiB memory cgroup (v$CGV, $CGBASE)"
fi
echo "ext4 on $WHAT, file ${SIZE} MiB, $LIMIT, chunk 8 KiB, -b, ${FILES}x1024 files, $ROUNDS rounds alternating, load $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine: loaded figures)"

FIGS="block_output rewrite block_input seeks seq_create seq_stat seq_delete ran_create ran_stat ran_delete"
# the same bonnie++ command line for both tools; each prints bonnie++'s CSV line
# SB_BONNIE_SEEKS=N: N seeks instead of 8192 (-s SIZE:8192:N), so the seek
# test outlasts bonnie++'s half second when the file is cached
ARGS=(-d "$TMP/mnt" -c 1 -s "${SIZE}M${SB_BONNIE_SEEKS:+:8192:$SB_BONNIE_SEEKS}" -r "$RAM" -n "$FILES" -f -b -u root -q)
parse_csv() {
	tail -1 | python3 -c '
import sys
f = sys.stdin.read().strip().split(",")
# bonnie++ 1.98 CSV: 11 put_block KiB/s, 13 rewrite, 17 get_block, 19 seeks,
# 26 seq_create, 28 seq_stat, 30 seq_del, 32 ran_create, 34 ran_stat, 36 ran_del
idx = {"block_output": 11, "rewrite": 13, "block_input": 17, "seeks": 19, "seq_create": 26,
       "seq_stat": 28, "seq_delete": 30, "ran_create": 32, "ran_stat": 34, "ran_delete": 36}
for k, i in idx.items():
    v, c = f[i], f[i + 1]
    if not v or "+" in v:
        print(k, "nan", "nan"); continue
    v = float(v) * (1024 / 1e6 if i in (11, 13, 17) else 1)   # KiB/s -> MB/s
    print(k, v, c if c and "+" not in c else "nan")
'
}
# in a memory cgroup of its own, made for this run and removed after it
in_cgroup() { # command...
	local rc=0
	[ -z "$CGV" ] && { "$@"; return; }
	CG=$CGBASE/sb-bonnie-compare.$$.$((++NCG))
	mkdir "$CG"
	if [ "$CGV" = 2 ]; then
		echo $((MEM << 20)) >"$CG/memory.max"
		[ -e "$CG/memory.swap.max" ] && echo 0 >"$CG/memory.swap.max"
	else
		echo $((MEM << 20)) >"$CG/memory.limit_in_bytes"
	fi
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" "$@" || rc=$?
	# its peak charge, to show the limit held it (v2 memory.peak from Linux 5.19)
	cat "$CG/memory.max_usage_in_bytes" "$CG/memory.peak" 2>/dev/null | head -1 >"$TMP/peak" || true
	rmdir "$CG" || { echo "cannot remove $CG" >&2; rc=1; }
	CG=
	return $rc
}
NCG=0
# one run: its CSV line parsed; a failed run says why and stops the script
run() { # name command...
	local name=$1; shift
	if ! in_cgroup "$@" >"$TMP/out" 2>"$TMP/err" || ! grep -q '^1\.98,' "$TMP/out"; then
		echo "$name failed: $(tail -5 "$TMP/err")" >&2
		exit 1
	fi
	grep '^1\.98,' "$TMP/out" | parse_csv
	[ -s "$TMP/peak" ] && echo "$name: memory cgroup peak $(($(cat "$TMP/peak") >> 20)) MiB (limit $MEM)" >&2
	rm -f "$TMP/peak"
}
run_bonnie() { run bonnie++ bonnie++ "${ARGS[@]}"; }
# stackbench bonnie, like bonnie++, does not drop the page cache between phases
run_sb() { run stackbench "$SB" bonnie "${ARGS[@]}"; }
: >"$TMP/sb.txt"; : >"$TMP/bo.txt"
# SB_BONNIE_WARMUP=1: one run of each first, not counted. Without a
# preallocated image the first writes into the image landed
# on memory this machine has not used yet (a VM whose hypervisor backs its
# memory on first touch: 0.8 GB/s the first time, 2 GB/s after), and
# whichever tool ran first paid for it (block output 484 MB/s in round 1
# against 851-1051 in the later ones, 2026-12-01).
if [ "${SB_BONNIE_WARMUP:-0}" = 1 ]; then
	run_sb >/dev/null; run_bonnie >/dev/null
	echo "warm-up done (one run of each, not counted)" >&2
fi
for r in $(seq 1 "$ROUNDS"); do
	if (( r % 2 )); then
		run_sb >>"$TMP/sb.txt"; run_bonnie >>"$TMP/bo.txt"
	else
		run_bonnie >>"$TMP/bo.txt"; run_sb >>"$TMP/sb.txt"
	fi
	echo "round $r done" >&2
done
python3 - "$TMP/sb.txt" "$TMP/bo.txt" "$FIGS" <<'PY'
import sys, math, statistics as st
def load(p):
    d = {}
    for line in open(p):
        k, v, c = line.split()
        d.setdefault(k, []).append((float(v), float(c)))
    return d
sb, bo = load(sys.argv[1]), load(sys.argv[2])
print(f"{'figure':14s} {'unit':5s} {'stackbench':>24s} {'bonnie++':>24s} {'ratio':>7s} {'rounds':>7s}  cpu% sb/b++")
print("(ratio: of the medians; rounds: the median of each round's own ratio, the two tools of a round")
print(" having run one after the other)")
for k in sys.argv[3].split():
    unit = "MB/s" if k in ("block_output", "rewrite", "block_input") else "/s"
    a = [v for v, c in sb.get(k, []) if not math.isnan(v)]
    b = [v for v, c in bo.get(k, []) if not math.isnan(v)]
    ca = [c for v, c in sb.get(k, []) if not math.isnan(c)]
    cb = [c for v, c in bo.get(k, []) if not math.isnan(c)]
    fa = ", ".join(f"{x:.0f}" for x in a); fb = ", ".join(f"{x:.0f}" for x in b) or "n/a (+++++)"
    ratio = f"{st.median(a) / st.median(b):.3f}" if a and b else "n/a"
    pairs = [x / y for (x, _), (y, _) in zip(sb.get(k, []), bo.get(k, [])) if not math.isnan(x) and not math.isnan(y) and y]
    rounds = f"{st.median(pairs):.3f}" if pairs else "n/a"
    cpu = f"{st.median(ca):.0f}/{st.median(cb):.0f}" if ca and cb else "-"
    print(f"{k:14s} {unit:5s} {fa:>24s} {fb:>24s} {ratio:>7s} {rounds:>7s}  {cpu}")
PY
