#!/bin/bash
# fio's file sets and file engines under `stackbench job`, side by side
# with Debian's fio 3.33 on the same small job files (each tool in its own
# scratch directory on a tmpfs): nrfiles, openfiles, create_on_open,
# file_service_type, filename_format and the filecreate, filestat (stat,
# lstat, statx) and filedelete engines. For each job file both tools are
# strace'd and, for every file of the set, the system calls on it
# (open, stat, lstat, statx, unlink, fallocate, ftruncate, write, close)
# must come in fio's order (but fio's per-file disk_util lookup, an lstat;
# stackbench looks the job's target up once); the files left behind, each
# job's io_bytes and its number of latency samples (one per file
# operation: fio's FIO_NOSTATS) must be fio's. Runtime: about 10 s on the loaded 2-core machine (two
# files of tiny size-based jobs, each tool strace'd once).
# Needs root, fio and strace.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio-fileset
command -v fio >/dev/null && command -v strace >/dev/null ||
	{ echo "FAIL: needs fio and strace" >&2; FAILED=1; exit; }
SB=$(readlink -f "$SB")
mkdir "$TMP/m"
mount -t tmpfs -o size=64m tmpfs "$TMP/m" || { fail "mount tmpfs"; exit; }

mkdir "$TMP/jobs"
# two files of several jobs each (fio runs them at once, as stackbench)
cat >"$TMP/jobs/stat.fio" <<'EOF'
[st]
ioengine=filestat
filesize=4k
nrfiles=5
[ls]
ioengine=filestat
stat_type=lstat
filesize=8k
bs=4k
nrfiles=3
[sx]
ioengine=filestat
stat_type=statx
size=12k
nrfiles=3
[del]
ioengine=filedelete
filesize=4k
nrfiles=4
unlink=0
EOF
cat >"$TMP/jobs/create.fio" <<'EOF'
[cr]
ioengine=filecreate
create_on_open=1
nrfiles=6
filesize=8k
bs=4k
openfiles=2
[sq]
ioengine=filecreate
nrfiles=4
filesize=8k
bs=4k
file_service_type=sequential
filename_format=$jobname-$filenum.dat
[rr]
ioengine=filecreate
nrfiles=3
size=24k
file_service_type=roundrobin:2
EOF

for j in stat create; do
	for t in fio sb; do
		d=$TMP/m/$t-$j
		mkdir -p "$d"
		if [ $t = fio ]; then cmd=(fio); else cmd=("$SB" -q job); fi
		(cd "$d" && timeout -k 10 60 strace -f -qq -o "$TMP/$t-$j.strace" "${cmd[@]}" --output-format=json \
			--output="$TMP/$t-$j.json" "$TMP/jobs/$j.fio" >/dev/null 2>"$TMP/$t-$j.err") ||
			fail "$j.fio: $t exited $?: $(tail -2 "$TMP/$t-$j.err")"
		(cd "$d" && ls -l | awk 'NR > 1 { print $1, $5, $9 }') >"$TMP/$t-$j.ls"
	done
	diff "$TMP/fio-$j.ls" "$TMP/sb-$j.ls" >/dev/null ||
		fail "$j.fio: files left: fio $(echo $(cat "$TMP/fio-$j.ls")) stackbench $(echo $(cat "$TMP/sb-$j.ls"))"
	python3 - "$TMP" "$j" <<'PY' || FAILED=1
import json, re, sys
tmp, j = sys.argv[1], sys.argv[2]
CALLS = {"openat", "newfstatat", "statx", "lstat", "stat", "unlink", "unlinkat", "fallocate", "ftruncate",
         "write", "close"}
line_re = re.compile(r'^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+)')

def per_file(path):
    """{file: [calls]} for the job's files (by their names' start), a run of writes as one"""
    pend, fds, out = {}, {}, {}
    for raw in open(path):
        raw = raw.rstrip("\n")
        m = re.match(r'^(\d+)\s+(.*)<unfinished \.\.\.>$', raw)
        if m:
            pend[m.group(1)] = m.group(2)
            continue
        m = re.match(r'^(\d+)\s+<\.\.\. \w+ resumed>(.*)$', raw)
        if m:
            raw = m.group(1) + " " + pend.pop(m.group(1), "") + m.group(2)
        m = line_re.match(raw)
        if not m or m.group(2) not in CALLS:
            continue
        pid, call, args, ret = m.group(1), m.group(2), m.group(3), int(m.group(4))
        q = re.search(r'"([^"]+)"', args)
        name = q.group(1).rsplit("/", 1)[-1] if q else None
        name = name if name and re.match(r'^(st|ls|sx|del|cr|sq|rr)[.-]\d', name) else None
        if call in ("fallocate", "ftruncate", "write", "close"):
            fd = args.split(",")[0].strip()
            name = fds.get((pid, fd))
            if call == "close":
                fds.pop((pid, fd), None)
        elif call == "openat" and name and ret >= 0:
            fds[(pid, str(ret))] = name
        if not name:
            continue
        seq = out.setdefault(name, [])
        what = call + ("" if ret >= 0 else "!")
        if call == "statx" and "AT_SYMLINK" in args:
            what += "/nofollow"
        if call == "newfstatat" and "AT_SYMLINK_NOFOLLOW" in args:
            what = "lstat" + what[len("newfstatat"):]
        if not (seq and seq[-1] == what and call == "write"):
            seq.append(what)
    return out

f, s = per_file(f"{tmp}/fio-{j}.strace"), per_file(f"{tmp}/sb-{j}.strace")
# fio's init_disk_util looks each file's device up (diskutil.c
# get_device_numbers: an lstat once it is laid out); stackbench's disk_util
# looks the job's target up once (cmd/job.c): that lstat is not compared
for seq in f.values():
    for k in range(1, len(seq)):
        if seq[k - 1] == "close" and seq[k] == "lstat":
            del seq[k]
            break
bad = 0
if sorted(f) != sorted(s):
    print(f"FAIL: {j}.fio: files touched: fio {sorted(f)} stackbench {sorted(s)}", file=sys.stderr)
    bad = 1
for name in sorted(set(f) & set(s)):
    if f[name] != s[name]:
        print(f"FAIL: {j}.fio: {name}: fio {' '.join(f[name])} / stackbench {' '.join(s[name])}", file=sys.stderr)
        bad = 1
fj, sj = (json.load(open(f"{tmp}/{t}-{j}.json"))["jobs"] for t in ("fio", "sb"))
for a, b in zip(fj, sj):
    for d in ("read", "write"):
        if a[d]["io_bytes"] != b[d]["io_bytes"]:
            print(f"FAIL: {j}.fio: {d} io_bytes fio {a[d]['io_bytes']} stackbench {b[d]['io_bytes']}", file=sys.stderr)
            bad = 1
        if a[d]["clat_ns"]["N"] != b[d]["clat_ns"]["N"]:
            print(f"FAIL: {j}.fio: {d} clat samples fio {a[d]['clat_ns']['N']} stackbench {b[d]['clat_ns']['N']}",
                  file=sys.stderr)
            bad = 1
if not bad:
    print(f"{j}.fio: {len(f)} files as fio's, e.g. " + "; ".join(f"{n}: {' '.join(f[n])}" for n in sorted(f)[::4]))
sys.exit(bad)
PY
done
[ $FAILED = 0 ] && echo "PASS: job_fio_fileset"
