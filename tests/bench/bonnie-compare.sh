#!/bin/bash
# Side-by-side: `stackbench bonnie` (the bonnie suite) vs Debian's bonnie++ 2.00a,
# the same command line (`-d DIR -c 1 -s SIZE -r SIZE/2 -n FILES -f -b -u root -q`), on the same ext4
# (on a loop device backed by /dev/shm), alternating, N rounds; prints each
# figure of both and the ratio stackbench/bonnie++ of the medians (target:
# within 10%). Neither drops the page cache between phases; both must
# be told RAM is small (-r) to accept a file below twice RAM. Figures
# bonnie++ prints as "+++++" (test too short to time) are shown as n/a.
# A benchmark, not a pass/fail test.
# usage: tests/bench/bonnie-compare.sh [ROUNDS] [SIZE_MiB] [FILES]   (needs root)
# SB_BONNIE_SEEKS=N: N seeks (bonnie++'s -s SIZE:CHUNK:SEEKS) instead of 8192
# SB_BONNIE_WARMUP=0: no uncounted first run of each tool
# SB_BONNIE_DEV=/dev/X: make the ext4 on that scratch block device instead
# (it is overwritten; only a ubd of the throwaway kernel is accepted), e.g.
#   scripts/uml-run.sh --mem 384M --ubd 1:1600M -- env SB_BONNIE_DEV=/dev/ubda \
#       tests/bench/bonnie-compare.sh 3 512 2
# so the file is larger than the kernel's RAM and reads reach the device.
set -euo pipefail
ROUNDS=${1:-3}
SIZE=${2:-256}
FILES=${3:-4}
SB=${SB_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/build/stackbench}
TMP=$(mktemp -d "$([ -n "${SB_BONNIE_DEV:-}" ] && echo /tmp || echo /dev/shm)/sb-bonnie-compare.XXXXXX")
LOOP=
cleanup() {
	mountpoint -q "$TMP/mnt" 2>/dev/null && umount "$TMP/mnt"
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
if [ -n "${SB_BONNIE_DEV:-}" ]; then
	case "$SB_BONNIE_DEV" in
	/dev/ubd?) ;;
	*) echo "SB_BONNIE_DEV: only a throwaway kernel's /dev/ubdX, not $SB_BONNIE_DEV" >&2; exit 2 ;;
	esac
	DEV=$SB_BONNIE_DEV; WHAT="$DEV (ubd), RAM $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB"
else
	truncate -s $((SIZE * 3 + 512))M "$TMP/img"
	LOOP=$(losetup -f --show "$TMP/img")
	DEV=$LOOP; WHAT="$LOOP (backed by /dev/shm)"
fi
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$DEV"
mkdir "$TMP/mnt"
mount "$DEV" "$TMP/mnt"
echo "ext4 on $WHAT, file ${SIZE} MiB, chunk 8 KiB, fsync after every write (-b), ${FILES}x1024 files, $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"

FIGS="block_output rewrite block_input seeks seq_create seq_stat seq_delete ran_create ran_stat ran_delete"
# the same bonnie++ command line for both tools; each prints bonnie++'s CSV line
# SB_BONNIE_SEEKS=N: N seeks instead of 8192 (-s SIZE:8192:N), so the seek
# test outlasts bonnie++'s half second when the file is cached
ARGS=(-d "$TMP/mnt" -c 1 -s "${SIZE}M${SB_BONNIE_SEEKS:+:8192:$SB_BONNIE_SEEKS}" -r $((SIZE / 2)) -n "$FILES" -f -b -u root -q)
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
# one run: its CSV line parsed; a failed run says why and stops the script
run() { # name command...
	local name=$1; shift
	if ! "$@" >"$TMP/out" 2>"$TMP/err" || ! grep -q '^1\.98,' "$TMP/out"; then
		echo "$name failed: $(tail -5 "$TMP/err")" >&2
		exit 1
	fi
	grep '^1\.98,' "$TMP/out" | parse_csv
}
run_bonnie() { run bonnie++ bonnie++ "${ARGS[@]}"; }
# stackbench bonnie, like bonnie++, does not drop the page cache between phases
run_sb() { run stackbench "$SB" bonnie "${ARGS[@]}"; }
: >"$TMP/sb.txt"; : >"$TMP/bo.txt"
# One run of each first, not counted: the first writes into the image land
# on memory this machine has not used yet (a VM whose hypervisor backs its
# memory on first touch: 0.8 GB/s the first time, 2 GB/s after), and
# whichever tool ran first paid for it (block output 484 MB/s in round 1
# against 851-1051 in the later ones, 2026-12-01).
if [ "${SB_BONNIE_WARMUP:-1}" = 1 ]; then
	run_sb >/dev/null; run_bonnie >/dev/null
	echo "warm-up done (one run of each, not counted; SB_BONNIE_WARMUP=0 skips it)" >&2
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
