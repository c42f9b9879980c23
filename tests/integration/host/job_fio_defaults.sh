#!/bin/bash
# fio's defaults, exactly: the same small job files run by Debian's fio 3.33
# and by `stackbench job` (each in its own scratch directory, strace'd) make
# the same system calls by class (pread64/pwrite64 vs io_submit, fadvise64,
# O_DIRECT or not on the job's file), carry the same "job options" and the
# same iodepth submit/complete histograms in their JSON; a random write
# touches every block once (fio's random map); a job without filename or
# directory works on NAME.0.0 in the current directory and keeps it
# (unlink=0); unlink=1 removes it; loops=3 is three passes with the cache
# dropped before each (as many preads as fio); offset/offset_increment put
# each thread's region where fio's go. Runtime: about 20 s (4 MiB jobs, 64 MiB
# loop device). Needs root, strace and Debian's fio.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio-defaults
command -v fio >/dev/null && command -v strace >/dev/null ||
	{ echo "FAIL: needs fio and strace" >&2; FAILED=1; exit; }
SB=$(readlink -f "$SB")

sb_host_loop 64M || { fail "losetup"; exit; }

# The job files. Nothing in them asks for an engine, direct, batching, a
# map or unlink: the defaults decide. The last one asks for O_DIRECT + libaio.
cat >"$TMP/rr.fio" <<'EOF'
; a buffered random read, every default
[rr]
rw=randread
size=4m
EOF
cat >"$TMP/rw.fio" <<'EOF'
[rw]
rw=randwrite
bs=4k
size=4m
EOF
cat >"$TMP/lp.fio" <<'EOF'
; loops: three passes, the cache dropped before each (fio's examples use thread)
[lp]
rw=randread
size=1m
loops=3
thread
EOF
cat >"$TMP/of.fio" <<'EOF'
; offset and offset_increment: two threads, 64 KiB each at 1 MiB and 1.25 MiB
[of]
filename=of.dat
rw=write
size=64k
offset=1m
offset_increment=256k
numjobs=2
group_reporting
EOF
cat >"$TMP/nl.fio" <<'EOF'
; fio's null engine: no file, busy until its one io is reaped
[nl]
ioengine=null
rw=randread
size=4m
iodepth=8
threads=1
EOF
cat >"$TMP/dl.fio" <<EOF
[dl]
filename=$LOOP
rw=randwrite
size=4m
direct=1
ioengine=libaio
iodepth=8
EOF

# run TOOL JOB: in $TMP/TOOL-JOB, strace'd twice (-c and the file calls), json out
run() {
	local tool=$1 job=$2 d="$TMP/$1-$2" cmd
	mkdir -p "$d"
	if [ "$tool" = fio ]; then cmd=(fio); else cmd=("$SB" -q job --destroy-data="$LOOP"); fi
	(cd "$d" && strace -f -c -o "$d/count" "${cmd[@]}" --output-format=json --output="$d/out.json" \
		"$TMP/$job.fio" >/dev/null 2>"$d/err") || { fail "$tool $job: $(tail -3 "$d/err")"; return 1; }
	[ "$job" = dl ] || rm -f "$d/$job.0.0"
	(cd "$d" && strace -f -e trace=openat,pwrite64,pread64,fadvise64,io_submit,unlink -o "$d/calls" \
		"${cmd[@]}" --output-format=json --output="$d/out2.json" "$TMP/$job.fio" >/dev/null 2>>"$d/err") ||
		fail "$tool $job (second run)"
}

for job in rr rw lp of nl dl; do
	run fio $job
	run sb $job
done

python3 - "$TMP" "$LOOP" <<'PY' || fail "stackbench and fio differ (above)"
import json, os, re, sys
tmp, loop = sys.argv[1], sys.argv[2]
bad = 0
def err(msg):
    global bad
    print("FAIL:", msg)
    bad = 1

def counts(path):
    c = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 5 and f[-1].isidentifier() and f[3].isdigit():
            c[f[-1]] = int(f[3])
    return c

def classes(c):
    return {k for k in ("pread64", "pwrite64", "read", "write", "io_submit", "io_getevents", "fadvise64") if c.get(k)}

for job, fname, ios in (("rr", "rr.0.0", 1024), ("rw", "rw.0.0", 1024), ("lp", "lp.0.0", 768), ("of", "of.dat", 32), ("nl", None, 1024),
                        ("dl", loop, 1024)):
    d = {t: os.path.join(tmp, t + "-" + job) for t in ("fio", "sb")}
    c = {t: counts(d[t] + "/count") for t in d}
    # the I/O system calls fio makes, stackbench makes (pread/pwrite or io_submit), with fadvise
    want = classes(c["fio"]) & {"pread64", "io_submit", "io_getevents", "fadvise64"}
    got = classes(c["sb"]) & {"pread64", "io_submit", "io_getevents", "fadvise64"}
    if want != got:
        err(f"{job}: system-call classes fio {sorted(want)} stackbench {sorted(got)}")
    for k in ("pread64", "io_submit"):
        if c["fio"].get(k, 0) >= ios and c["sb"].get(k, 0) < ios:
            err(f"{job}: {k}: fio {c['fio'].get(k)} calls, stackbench {c['sb'].get(k, 0)}")
    # the job's file opened with the same O_DIRECT-ness, and fadvise on it
    for t in (d if fname else ()):
        if not os.path.exists(d[t] + "/calls") or not os.path.exists(d[t] + "/out.json"):
            err(f"{job}: {t} did not run")
            continue
        calls = open(d[t] + "/calls").read()
        opens = [l for l in calls.splitlines() if "openat(" in l and fname.split("/")[-1] + '"' in l
                 and "= -1" not in l]
        if not opens:
            err(f"{job}: {t} never opened {fname}")
        direct = {("O_DIRECT" in l) for l in opens if "O_RDWR" in l or "O_RDONLY" in l}
        if direct != {job == "dl"} and not (job == "dl" and True in direct):
            err(f"{job}: {t} opens {fname} with O_DIRECT {sorted(direct)}")
        if "POSIX_FADV_DONTNEED" not in calls and job != "dl":
            err(f"{job}: {t} made no posix_fadvise(DONTNEED) (invalidate=1)")
        if job == "rw":
            offs = [int(m.group(1)) for m in re.finditer(r"pwrite64\(\d+, .*?, 4096, (\d+)\) = 4096", calls)]
            # the job's 1024 random writes: every block once (fio's random map)
            if len(offs) < 1024 or len(set(offs[-1024:])) != 1024:
                err(f"{job}: {t}: {len(set(offs[-1024:]))} distinct blocks in the last 1024 of "
                    f"{len(offs)} 4 KiB writes, want 1024 (random map)")
    try:
        j = {t: json.load(open(d[t] + "/out.json"))["jobs"][0] for t in d}
    except (OSError, ValueError, KeyError, IndexError) as e:
        err(f"{job}: no JSON ({e})")
        continue
    for dr in ("read", "write"):
        if j["fio"][dr]["total_ios"] != j["sb"][dr]["total_ios"]:
            err(f"{job}: {dr} total_ios: fio {j['fio'][dr]['total_ios']} stackbench {j['sb'][dr]['total_ios']}")
    if j["fio"]["job options"] != j["sb"]["job options"]:
        err(f"{job}: job options: fio {j['fio']['job options']} stackbench {j['sb']['job options']}")
    # the same distributions (fio prints 6 decimals, stackbench more: output rules, not defaults)
    for k in ("iodepth_submit", "iodepth_complete", "iodepth_level"):
        if j["fio"][k].keys() != j["sb"][k].keys() or \
           any(abs(j["fio"][k][b] - j["sb"][k][b]) > 0.01 for b in j["fio"][k]):
            err(f"{job}: {k}: fio {j['fio'][k]} stackbench {j['sb'][k]}")
    if job == "of":
        sizes = {t: os.path.getsize(os.path.join(d[t], fname)) for t in d}
        if sizes["fio"] != sizes["sb"] or sizes["sb"] != (1 << 20) + (256 << 10) + (64 << 10):
            err(f"of: file sizes fio {sizes['fio']} stackbench {sizes['sb']} (offset + increment + size)")
    # files kept (unlink=0), named as fio's
    if job not in ("dl", "nl"):
        for t in d:
            if not os.path.exists(os.path.join(d[t], fname)):
                err(f"{job}: {t} did not keep {fname}")
sys.exit(bad)
PY

# unlink=1 removes the job's file, as fio's
mkdir -p "$TMP/unlink" && (cd "$TMP/unlink" && "$SB" -q job --name=u --rw=write --size=1m --unlink=1 >/dev/null) ||
	fail "stackbench job --unlink=1"
[ -e "$TMP/unlink/u.0.0" ] && fail "unlink=1 left u.0.0"
# an ioengine stackbench lacks is refused by name (exit 2)
"$SB" -q job --name=x --size=1m --ioengine=rdma >/dev/null 2>"$TMP/e"
[ $? = 2 ] && grep -q "ioengine=rdma" "$TMP/e" || fail "ioengine=rdma not refused by name: $(cat "$TMP/e")"

[ $FAILED = 0 ] && echo "PASS: job_fio_defaults"
