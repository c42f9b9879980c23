#!/bin/bash
# `stackbench job`'s output beside Debian's fio 3.33 on the same small jobs:
# JSON key sets (disk_util with fio's keys only; stackbench's iostat -x
# figures apart in stackbench_iostat, with --watch only), group_reporting's job_runtime summed
# over the threads, the bw/iops/lat logs without log_avg_msec (a line for
# every io, the same files, five columns with the priority last; six with
# log_offset=1; one file for all threads with per_job_logs=0), the text
# output's kinds of lines ("Starting 2 processes", per= in the bw line), and
# steady state (ss/ss_dur: the job ends once attained, fio's "steadystate"
# block and text line), the write line (zone resets). Runtime: about 15 s (4 MiB jobs on a 16 MiB loop
# device; two 1-second null-engine steady-state jobs each). Needs root and fio.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio-output
command -v fio >/dev/null || { echo "FAIL: needs Debian's fio" >&2; FAILED=1; exit; }
SB=$(readlink -f "$SB")
sb_host_loop 16M || { fail "losetup"; exit; }

# run TOOL NAME ARGS...: in $TMP/TOOL-NAME
run() {
	local tool=$1 name=$2 d="$TMP/$1-$2" cmd
	shift 2
	mkdir -p "$d"
	if [ "$tool" = fio ]; then cmd=(fio); else cmd=("$SB" -q job --destroy-data="$LOOP"); fi
	# udev may still be probing the device after the last writer closed it
	command -v udevadm >/dev/null && udevadm settle --timeout=5 2>/dev/null
	(cd "$d" && "${cmd[@]}" "$@" >"$d/out" 2>"$d/err") || fail "$tool $name: $(tail -3 "$d/err")"
}
common=(--name=o --filename="$LOOP" --rw=randread --bs=4k --size=4m --numjobs=2 --group_reporting
	--write_bw_log=l --write_iops_log=l --write_lat_log=l)
ss=(--name=s --ioengine=null --rw=randread --size=4m --time_based --runtime=20 --ss=iops:50% --ss_dur=1)
for t in fio sb; do
	run $t json "${common[@]}" --output-format=json
	run $t text "${common[@]}"
	run $t off "${common[@]}" --log_offset=1 --per_job_logs=0 --output-format=json
	run $t wtext --name=w --filename="$LOOP" --rw=write --bs=64k --size=4m --direct=1
	run $t ssj "${ss[@]}" --output-format=json
	run $t sst "${ss[@]}"
done
# stackbench's iostat -x figures: only with --watch (not a key fio's consumers know)
run sb watch "${common[@]}" --output-format=json --watch="$LOOP"

python3 - "$TMP" <<'PY' || fail "stackbench's output differs from fio's (above)"
import glob, json, os, re, sys
tmp = sys.argv[1]
bad = 0
def err(m):
    global bad
    print("FAIL:", m); bad = 1
def load(t, n):
    return json.load(open(f"{tmp}/{t}-{n}/out"))
def keys(o, p=""):
    out = set()
    if isinstance(o, dict):
        for k, v in o.items():
            out.add(p + "/" + k)
            out |= keys(v, p + "/" + k)
    elif isinstance(o, list) and o and isinstance(o[0], dict):
        out |= keys(o[0], p + "[]")
    return out

f, s = load("fio", "json"), load("sb", "json")
# disk_util: fio's keys only
du = lambda j: {k for d in j.get("disk_util", []) for k in d}
if s["disk_util"] and du(s) != du(f):
    err(f"disk_util keys: fio {sorted(du(f))} stackbench {sorted(du(s))}")
if not s["disk_util"]:
    err("stackbench's disk_util is empty (the loop device was read)")
if "stackbench_iostat" in s:
    err("stackbench_iostat is there without --watch")
w = load("sb", "watch")
if {k for d in w.get("stackbench_iostat", []) for k in d} < {"name", "util_pct", "r_await_ms", "aqu_sz"}:
    err("stackbench_iostat (--watch) lacks the iostat -x figures")
kf, ks = keys(f), keys(s)
only_sb = {k for k in ks - kf if not k.startswith("/stackbench_iostat")}
only_fio = kf - ks
for k in sorted(only_sb): err("only stackbench has " + k)
for k in sorted(only_fio): err("only fio has " + k)
# group_reporting: job_runtime is the threads' runtimes summed (fio: 2 threads > one)
for t, j in (("fio", f), ("sb", s)):
    x = j["jobs"][0]
    if not x["job_runtime"] > x["read"]["runtime"]:
        err(f"{t}: job_runtime {x['job_runtime']} is not the sum over 2 threads (read.runtime {x['read']['runtime']})")
    if "time_based" in x["job options"] or "group_reporting" in x["job options"]:
        err(f"{t}: a bare flag in the job options {x['job options']}")

# logs: same files, one line per io (1024 per thread), the columns fio writes
def logs(t, n):
    return {os.path.basename(p): open(p).read().splitlines() for p in glob.glob(f"{tmp}/{t}-{n}/l_*.log")}
for n, ncol in (("json", 5), ("off", 6)):
    lf, ls = logs("fio", n), logs("sb", n)
    if set(lf) != set(ls):
        err(f"{n}: log files: fio {sorted(lf)} stackbench {sorted(ls)}")
    for name in sorted(set(lf) & set(ls)):
        if len(lf[name]) != len(ls[name]):
            err(f"{n}: {name}: fio {len(lf[name])} lines, stackbench {len(ls[name])}")
        for line in ls[name][:50]:
            c = [x.strip() for x in line.split(",")]
            if len(c) != ncol or c[-1] != "0" or c[3] != "4096":
                err(f"{n}: {name}: '{line}' is not time, value, 0, 4096,{' offset,' if ncol == 6 else ''} 0")
                break
            if ncol == 6 and int(c[4]) % 4096:
                err(f"{n}: {name}: offset {c[4]} in column 5")
                break
    if n == "json" and len(ls.get("l_bw.1.log", [])) != 1024:
        err(f"l_bw.1.log: {len(ls.get('l_bw.1.log', []))} lines, not one per io (1024)")

# text: the same kinds of lines (stackbench adds its iostat -x table)
def kinds(t, n):
    out = set()
    for line in open(f"{tmp}/{t}-{n}/out"):
        m = re.match(r"\s*([A-Za-z][A-Za-z ]*?)\s*(\(|:|=|\d)", line)
        if m and not line.startswith(("fio-", "stackbench-")):
            out.add(m.group(1))
    return out
tf, ts = kinds("fio", "text"), kinds("sb", "text")
extra = {"Disk stats (iostat -x; MB/s = 10^6 B/s, req-sz in KiB, await in ms)", "device", "Disk stats"}
for k in sorted(ts - tf):
    if not any(k.startswith(e.split(" (")[0]) for e in extra) and not re.match(r"^(loop|vd|sd|nvme)", k):
        err(f"text: only stackbench prints '{k}'")
for k in sorted(tf - ts):
    err(f"text: only fio prints '{k}'")
st = open(f"{tmp}/sb-text/out").read()
# a write's line ends as fio's (zone resets), its other lines as a read's
wl = [open(f"{tmp}/{t}-wtext/out").read() for t in ("fio", "sb")]
for t, text in zip(("fio", "sb"), wl):
    if not re.search(r"^  write: IOPS=\S+, BW=\S+ \(\S+\)\(\S+/\d+msec\); 0 zone resets$", text, re.M):
        err(f"{t}: the write line is not fio's: {[l for l in text.splitlines() if 'write:' in l]}")
for want in ("Starting 2 processes\n", ", per=", "clat percentiles (", "  lat ("):
    if want not in st:
        err(f"text: stackbench lacks '{want.strip()}'")

# steady state: attained, the job ended early (runtime 20 s), fio's block
for t in ("fio", "sb"):
    x = load(t, "ssj")["jobs"][0]
    b = x.get("steadystate")
    if not b:
        err(f"{t}: no steadystate block"); continue
    if b["attained"] != 1 or x["job_runtime"] > 10000:
        err(f"{t}: steady state not attained / job not ended early: {b} job_runtime {x['job_runtime']}")
    if len(b["data"]["iops"]) != b["duration"] or b["ss"] != "iops:50.000000%":
        err(f"{t}: steadystate block {b}")
# the options dict: fio lists ss, ss_dur by their names (steadystate, steadystate_duration)
of, osb = (load(t, "ssj")["jobs"][0]["job options"] for t in ("fio", "sb"))
if of != osb:
    err(f"steady state job options: fio {of} stackbench {osb}")
kf = keys(load("fio", "ssj")["jobs"][0]["steadystate"])
ks = keys(load("sb", "ssj")["jobs"][0]["steadystate"])
if kf != ks:
    err(f"steadystate keys: fio {sorted(kf)} stackbench {sorted(ks)}")
for t in ("fio", "sb"):
    line = [l for l in open(f"{tmp}/{t}-sst/out") if "steadystate" in l]
    if not line or not re.match(r"  steadystate  : attained=yes, bw=\S+ \(\S+\), iops=\S+, iops mean dev=\d+\.\d{3}%$", line[0].rstrip()):
        err(f"{t}: steadystate text line {line}")
sys.exit(bad)
PY
exit
