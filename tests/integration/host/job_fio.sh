#!/bin/bash
# stackbench job speaks fio: the reference write-ups' fio command lines run
# verbatim (smaller sizes); the same job run by the real fio and by
# stackbench on the same loop device gives the same JSON key sets (each
# difference listed below with its reason); fio's own tools read the output
# (fio_jsonplus_clat2csv reads json+, fio2gnuplot reads the bandwidth log);
# bad input exits 2 with fio's option named. Needs root and Debian's fio.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio
command -v fio >/dev/null && command -v fio_jsonplus_clat2csv >/dev/null && command -v fio2gnuplot >/dev/null ||
	{ echo "FAIL: needs Debian's fio package (fio, fio_jsonplus_clat2csv, fio2gnuplot)" >&2; FAILED=1; exit; }

truncate -s 64M "$TMP/img"
LOOP=$(losetup -f --show "$TMP/img") || { fail "losetup"; exit; }

# 1. the same job, real fio and stackbench, json+ (one job per thread: numjobs 2)
args=(--name=keys --filename="$LOOP" --size=8M --bs=4k --rw=randrw --iodepth=4 --ioengine=libaio
      --direct=1 --numjobs=2 --output-format=json+)
fio "${args[@]}" --output="$TMP/fio.json" >/dev/null || fail "fio itself failed"
"$SB" -q job --destroy-data="$LOOP" "${args[@]}" --output="$TMP/sb.json" || fail "stackbench job failed"
python3 - "$TMP/fio.json" "$TMP/sb.json" <<'PY' || fail "key sets differ"
import json, sys
fio, sb = (json.load(open(p)) for p in sys.argv[1:3])
def keys(o, p=""):
    out = set()
    if isinstance(o, dict):
        for k, v in o.items():
            if p.endswith("/bins") or p.endswith("/disk_util[]"):
                pass
            out.add(p + "/" + k)
            if not p.endswith("/bins"):
                out |= keys(v, p + "/" + k)
    elif isinstance(o, list) and o:
        out |= keys(o[0], p + "[]")
    return out
# bins keys are latency values, disk_util lists devices: compared by shape below
strip = lambda ks: {k for k in ks if "/bins/" not in k}
kf, ks = strip(keys(fio)), strip(keys(sb))
# Differences, each with its reason:
justified_sb_only = {
    # stackbench's iostat -x figures of the same devices, apart from fio's
    # disk_util (which has fio's keys only: fio's consumers check them)
    "/stackbench_iostat", "/stackbench_iostat[]/name",
    "/stackbench_iostat[]/read_bytes", "/stackbench_iostat[]/write_bytes", "/stackbench_iostat[]/util_pct",
    "/stackbench_iostat[]/r_per_s", "/stackbench_iostat[]/w_per_s", "/stackbench_iostat[]/read_mbps",
    "/stackbench_iostat[]/write_mbps", "/stackbench_iostat[]/rareq_kb", "/stackbench_iostat[]/wareq_kb",
    "/stackbench_iostat[]/r_await_ms", "/stackbench_iostat[]/w_await_ms", "/stackbench_iostat[]/aqu_sz",
}
justified_fio_only = set()
bad = (kf - ks - justified_fio_only) | (ks - kf - justified_sb_only)
for k in sorted(kf - ks - justified_fio_only):
    print("only fio has", k)
for k in sorted(ks - kf - justified_sb_only):
    print("only stackbench has", k)
assert len(sb["jobs"]) == len(fio["jobs"]) == 2, f"jobs: fio {len(fio['jobs'])}, stackbench {len(sb['jobs'])}"
assert sb["fio version"].startswith("stackbench-"), sb["fio version"]
j = sb["jobs"][0]
assert j["job options"] == fio["jobs"][0]["job options"] | {"filename": j["job options"]["filename"]}, \
    (j["job options"], fio["jobs"][0]["job options"])
for d in ("read", "write"):
    r = j[d]
    assert r["total_ios"] > 0 and r["clat_ns"]["N"] == r["total_ios"] == r["lat_ns"]["N"] == r["slat_ns"]["N"]
    assert r["lat_ns"]["mean"] >= r["clat_ns"]["mean"], "lat is start to completion, clat a part of it"
    assert abs(r["lat_ns"]["mean"] - r["clat_ns"]["mean"] - r["slat_ns"]["mean"]) < 0.01 * r["lat_ns"]["mean"] + 10
    assert sum(r["clat_ns"]["bins"].values()) == r["total_ios"], "bins hold every io"
    assert len(r["clat_ns"]["percentile"]) == 17 and "95.000000" in r["clat_ns"]["percentile"]
    assert all(isinstance(v, str) for v in j["job options"].values())
sys.exit(1 if bad else 0)
PY
# group_reporting: one entry
"$SB" -q job --name=g --filename="$LOOP" --size=4M --rw=read --numjobs=2 --group_reporting \
	--output-format=json >"$TMP/g.json" || fail "group_reporting job failed"
python3 -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs']; assert len(j)==1 and j[0]['read']['io_bytes']==8<<20, j" \
	"$TMP/g.json" || fail "group_reporting: not one job of both threads"

# 2. fio's tools on stackbench output
(cd "$TMP" && fio_jsonplus_clat2csv sb.json clat.csv >/dev/null) || fail "fio_jsonplus_clat2csv failed"
[ "$(wc -l <"$TMP/clat_job0.csv" 2>/dev/null || echo 0)" -gt 10 ] || fail "fio_jsonplus_clat2csv wrote no rows"
mkdir "$TMP/logs"
"$SB" -q job --name=logs --filename="$LOOP" --ioengine=libaio --rw=randread --bs=4k --iodepth=8 --runtime=1 --time_based \
	--write_bw_log="$TMP/logs/sb" --write_iops_log="$TMP/logs/sb" --write_lat_log="$TMP/logs/sb" \
	--log_avg_msec=100 >/dev/null || fail "logging job failed"
for k in bw iops slat clat lat; do
	grep -Eq '^[0-9]+, [0-9]+, 0, 0, 0$' "$TMP/logs/sb_$k.1.log" || fail "sb_$k.1.log: not fio's log format"
done
[ "$(wc -l <"$TMP/logs/sb_bw.1.log")" -ge 8 ] || fail "bw log: fewer than 8 entries for 1 s at 100 ms"
(cd "$TMP/logs" && fio2gnuplot -b >fio2gnuplot.out 2>&1) || fail "fio2gnuplot failed: $(cat "$TMP/logs/fio2gnuplot.out")"
grep -q '^avg=[1-9]' "$TMP/logs/result.global" 2>/dev/null || fail "fio2gnuplot found no bandwidth in the log"

# 3. the write-ups' command lines, fio replaced by stackbench job (sizes smaller)
(cd "$TMP" && "$SB" -q job --name=myjob --randrepeat=0 --ioengine=libaio --direct=1 --size=8M --filename=testfile \
	--bs=512k --iodepth=32 --rw=read --numjob=2 >out1.txt) || fail "003 command line failed"
grep -q "READ: bw=" "$TMP/out1.txt" || fail "003: no run status line"
[ "$(stat -c %s "$TMP/testfile")" = $((8 << 20)) ] || fail "003: testfile is not 8 MiB: both threads share it, as in fio"
mkdir "$TMP/d"
(cd "$TMP" && "$SB" -q job --name=stressant --group_reporting --directory="$TMP/d" --size=4M --readwrite=randrw \
	--direct=1 --numjobs=4 >out2.txt) || fail "004 command line failed"
grep -q "stressant: (groupid=0, jobs=4)" "$TMP/out2.txt" || fail "004: not one group-reported job of 4"
# fio's unlink=0: the four threads' files stay, named as fio's
[ "$(ls "$TMP/d" | tr '\n' ' ')" = "stressant.0.0 stressant.1.0 stressant.2.0 stressant.3.0 " ] ||
	fail "004: not fio's kept files: $(ls "$TMP/d")"

# 4. a job file
printf '[global]\nfilename=%s\nsize=4M\ndirect=1\n\n[seq]\nrw=read\nbs=64k\n\n[rand]\nstonewall\nrw=randread\n' \
	"$LOOP" >"$TMP/t.fio"
"$SB" -q job --output-format=json "$TMP/t.fio" >"$TMP/f.json" || fail "job file failed"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert [x['jobname'] for x in j['jobs']]==['seq','rand'] and [x['groupid'] for x in j['jobs']]==[0,1], j['jobs']" \
	"$TMP/f.json" || fail "job file: jobs or groups wrong"

# 5. bad input: exit 2, the option named
expect2() { # want-message args...
	local want=$1 out rc; shift
	out=$("$SB" job "$@" 2>&1); rc=$?
	[ $rc = 2 ] || fail "job $*: exit $rc, expected 2 ($out)"
	echo "$out" | grep -qF -- "$want" || fail "job $*: '$out' lacks '$want'"
}
expect2 "not supported by stackbench job: --cgroup" --filename="$LOOP" --cgroup=sb
expect2 "--iodepth needs a value" --filename="$LOOP" --iodepth
expect2 "--bs: '0' is not a block size" --filename="$LOOP" --bs 0
expect2 "target /nonexistent" --target /nonexistent
expect2 "unknown option '--outp'" --filename="$LOOP" --outp=x

"$SB" job --cmdhelp | grep -- "--numjobs --numjob" >/dev/null || fail "--cmdhelp does not list the options"
# fio 3.33's sha256 is not SHA-256 (src/bench/fioverify.c): refused by name
expect2 "not supported by stackbench job: --verify=sha256" --filename="$LOOP" --verify=sha256

[ $FAILED = 0 ] && echo "PASS: job_fio"
