#!/bin/bash
# Does the throwaway kernel itself read (and write) LUKS 4096-byte sectors
# slower than 512? One boot, two stacks side by side - RAID1 of two ubd
# members -> LUKS2 aes-xts-plain64 (512-bit key) with 512- or 4096-byte
# sectors -> ext4 - and ROUNDS alternating rounds of: dd bs=1M conv=fdatasync
# into a file, drop caches, dd read back, dd iflag=direct of the mapping.
# Each pass is timed inside and its CPU time is sampled from the host (the
# UML kernel process and its children, every 50 ms), because on a loaded
# machine wall-clock MB/s follow the load while CPU seconds per pass follow
# the work. Prints per pass and the medians; asserts nothing (a measurement
# for docs/sandbox.md, "dd in the throwaway kernel"; not run by CI).
#   tests/bench/luks_sector_cpu.sh [ROUNDS (4)] [MiB per pass (256)]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = --inside ]; then
	n=$3
	# the passphrase only in this shell's memory and cryptsetup's stdin
	key=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
	ts() { date +%s.%N; }
	mb() { sed -n 's/.* s, \([0-9.]*\) \([MG]\)B\/s.*/\1 \2/p' | awk '{print ($2=="G")?$1*1000:$1}'; }
	mk() { # md-number member member sector-size
		mdadm --create /dev/md$1 -R -q --level=1 --raid-devices=2 --metadata=1.2 --bitmap=internal \
			--assume-clean --homehost=any "$2" "$3" >/dev/null 2>&1 || { echo "mdadm --create md$1 failed"; exit 1; }
		printf %s "$key" | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
			--cipher aes-xts-plain64 --key-size 512 --sector-size $4 /dev/md$1 --key-file=- || exit 1
		printf %s "$key" | cryptsetup open /dev/md$1 c$4 --key-file=- || exit 1
		mkfs.ext4 -q -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 /dev/mapper/c$4 || exit 1
		mkdir -p /run/m$4 && mount /dev/mapper/c$4 /run/m$4 || exit 1
	}
	mk 0 /dev/ubda /dev/ubdb 512
	mk 1 /dev/ubdc /dev/ubdd 4096
	for s in 512 4096; do
		q=/sys/block/$(basename "$(readlink -f /dev/mapper/c$s)")/queue
		echo "INFO c$s read_ahead_kb $(cat $q/read_ahead_kb) max_sectors_kb $(cat $q/max_sectors_kb) logical_block $(cat $q/logical_block_size)"
	done
	echo "INFO crypto driver $(grep -A2 '^name *: xts(aes)' /proc/crypto | sed -n 's/^driver *: //p' | head -1)"
	for r in $(seq "$2"); do
		for s in 512 4096; do
			f=/run/m$s/dd.0
			sync; echo 3 > /proc/sys/vm/drop_caches
			echo "MARK $(ts) begin write$s $r"
			w=$(dd if=/dev/zero of=$f bs=1M count=$n conv=fdatasync 2>&1 | mb)
			echo "MARK $(ts) end write$s $r $w"
			sync; echo 3 > /proc/sys/vm/drop_caches
			echo "MARK $(ts) begin read$s $r"
			rd=$(dd if=$f of=/dev/null bs=1M 2>&1 | mb)
			echo "MARK $(ts) end read$s $r $rd"
			rm -f $f; sync
			echo "MARK $(ts) begin rawread$s $r"
			x=$(dd if=/dev/mapper/c$s of=/dev/null bs=1M count=$n skip=64 iflag=direct 2>&1 | mb)
			echo "MARK $(ts) end rawread$s $r $x"
		done
	done
	umount /run/m512 /run/m4096; cryptsetup close c512; cryptsetup close c4096
	mdadm --stop /dev/md0 /dev/md1 >/dev/null 2>&1
	exit 0
fi
rounds=${1:-4}
mib=${2:-256}
tmp=$(mktemp -d /tmp/sb-luks-cpu.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "luks_sector_cpu: $rounds rounds of $mib MiB, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$root/scripts/uml-run.sh" --ubd 4:1G -- "$root/tests/bench/luks_sector_cpu.sh" --inside "$rounds" "$mib" > "$tmp/log" 2>&1 &
uml=$!
# Host side: CPU ticks of the linux.uml started for this run (umid=sbr-<pid
# of uml-run.sh>) whose parent is not one, plus its children; children that
# were reaped are in its cutime/cstime.
python3 - "umid=sbr-$uml" "$tmp/cpu" "$uml" <<'PY' &
import os, sys, time
marker, out, owner = sys.argv[1].encode(), open(sys.argv[2], "w"), sys.argv[3]
def stat(p):
    return open("/proc/%s/stat" % p).read().rsplit(")", 1)[1].split()
main = None
while os.path.exists("/proc/" + owner):
    if main is None:
        for p in filter(str.isdigit, os.listdir("/proc")):
            if p == str(os.getpid()): continue
            try:
                c = open("/proc/%s/cmdline" % p, "rb").read()
                if marker in c.split(b"\0") and marker not in open("/proc/%s/cmdline" % stat(p)[1], "rb").read().split(b"\0"):
                    main = p
            except OSError:
                pass
    if main:
        try:
            f = stat(main); t = sum(map(int, f[11:15]))
            for c in open("/proc/%s/task/%s/children" % (main, main)).read().split():
                try: t += sum(map(int, stat(c)[11:13]))
                except OSError: pass
            out.write("%.3f %d\n" % (time.time(), t)); out.flush()
        except OSError:
            main = None
    time.sleep(0.05)
PY
mon=$!
wait $uml; rc=$?
wait $mon
grep '^INFO' "$tmp/log"
[ $rc -eq 0 ] || { cat "$tmp/log"; echo "luks_sector_cpu: the run inside failed (exit $rc)"; exit 1; }
python3 - "$tmp/log" "$tmp/cpu" "$mib" <<'PY'
import bisect, re, statistics as st, sys, os
tck = os.sysconf("SC_CLK_TCK"); mib = float(sys.argv[3])
cpu = [tuple(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
ts = [c[0] for c in cpu]
def at(t):
    i = min(max(bisect.bisect_left(ts, t), 0), len(ts) - 1)
    return cpu[i][1] / tck
beg, rows = {}, {}
for l in open(sys.argv[1]):
    m = re.match(r"MARK (\S+) (begin|end) (\D+)(\d+) (\d+)", l)
    if not m: continue
    t, kind, size, r = float(m.group(1)), m.group(3), m.group(4), m.group(5)
    if m.group(2) == "begin": beg[(kind, size, r)] = t; continue
    t0 = beg[(kind, size, r)]
    rows.setdefault((kind, size), {})[r] = (t - t0, at(t) - at(t0))
print("pass           sectors  round  wall s   CPU s   MB/s (wall)")
for (kind, size), v in sorted(rows.items()):
    for r, (w, c) in sorted(v.items()):
        print("%-14s %7s  %5s  %6.2f  %6.2f  %6.0f" % (kind, size, r, w, c, mib * 1.048576 / w))
print("medians (CPU s per pass, range), and 4096 / 512 of the CPU per round (median):")
for kind in ("write", "read", "rawread"):
    a, b = rows.get((kind, "4096"), {}), rows.get((kind, "512"), {})
    if not a or not b: continue
    ca, cb = [x[1] for x in a.values()], [x[1] for x in b.values()]
    pair = [a[r][1] / b[r][1] for r in a if r in b and b[r][1] > 0]
    print("  %-8s 512 %.2f (%.2f-%.2f)  4096 %.2f (%.2f-%.2f)  4096/512 CPU %.2f, wall %.2f" % (
        kind, st.median(cb), min(cb), max(cb), st.median(ca), min(ca), max(ca), st.median(pair),
        st.median(x[0] for x in a.values()) / st.median(x[0] for x in b.values())))
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
