#!/bin/bash
# fio's pacing and job control, side by side with Debian's fio 3.33 on the
# same small job files (each tool in its own scratch directory in /dev/shm):
# rate= and rate_iops= give the same achieved bandwidth / IOPS as fio's
# (within 5 %, and within 5 % of the rate asked); flow= keeps two null jobs
# in fio's 1:8 ratio (within 10 %); wait_for runs a chain of jobs one after
# the other as fio does; exitall stops a long job when a short one ends;
# number_ios=100 with loops=2 does 200 ios. Runtime: about 20 s (2 s jobs,
# each tool once). Needs root and Debian's fio.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio-rate
command -v fio >/dev/null || { echo "FAIL: needs fio" >&2; FAILED=1; exit; }
SB=$(readlink -f "$SB")

cat >"$TMP/rate.fio" <<'EOF'
[rate]
filename=rate.dat
size=8m
rw=read
rate=2m
runtime=2
time_based
[iops]
stonewall
filename=iops.dat
size=8m
rw=randread
ioengine=libaio
iodepth=8
rate_iops=500
runtime=2
time_based
[nios]
stonewall
filename=nios.dat
size=1m
number_ios=100
loops=2
EOF
# exitall: the first to end stops the other at once, which would otherwise
# run unheld (its partner's weight gone) until its own end, in both tools
cat >"$TMP/flow.fio" <<'EOF'
[global]
ioengine=null
size=100g
runtime=2
flow_id=1
exitall
[flow1]
flow=1
[flow2]
flow=8
EOF
cat >"$TMP/wait.fio" <<'EOF'
; a chain: b waits for a, c for b (new_group: reported apart, not a stonewall)
[global]
rw=write
size=4m
runtime=600ms
time_based
[a]
filename=a.dat
[b]
new_group
wait_for=a
filename=b.dat
[c]
new_group
wait_for=b
filename=c.dat
EOF
cat >"$TMP/exit.fio" <<'EOF'
; exitall: the short job's end stops the long one (same group)
[long]
filename=long.dat
rw=write
size=4m
runtime=20
time_based
exitall
[short]
filename=short.dat
rw=write
size=4m
runtime=500ms
time_based
EOF

run() { # tool job
	local d=$TMP/$1-$2 t0
	mkdir -p "$d"
	t0=$(date +%s.%N)
	if [ "$1" = fio ]; then
		(cd "$d" && fio --output-format=json --output=out.json "$TMP/$2.fio" >/dev/null 2>"$d/err")
	else
		(cd "$d" && "$SB" -q job --output-format=json --output=out.json "$TMP/$2.fio" >/dev/null 2>"$d/err")
	fi || { fail "$1 $2: $(tail -3 "$d/err")"; return 1; }
	echo "$(date +%s.%N) - $t0" | bc >"$d/wall"
}
for job in rate flow wait exit; do
	for tool in fio sb; do run $tool $job; done
done

python3 - "$TMP" <<'PY' || fail "stackbench and fio differ (above)"
import json, os, sys
tmp = sys.argv[1]
bad = 0
def err(m):
    global bad
    print("FAIL: " + m, file=sys.stderr)
    bad = 1
def load(tool, job):
    try:
        with open(f"{tmp}/{tool}-{job}/out.json") as f:
            return {j["jobname"]: j for j in json.load(f)["jobs"]}
    except (OSError, ValueError) as e:
        err(f"{tool} {job}: no JSON ({e})")
        sys.exit(1)
def wall(tool, job):
    return float(open(f"{tmp}/{tool}-{job}/wall").read())
def near(a, b, pct):
    return abs(a - b) <= pct / 100 * max(a, b)
r = {t: load(t, "rate") for t in ("fio", "sb")}
bw = {t: r[t]["rate"]["read"]["bw"] for t in r}
iops = {t: r[t]["iops"]["read"]["iops"] for t in r}
print(f"rate=2m: bw fio {bw['fio']} sb {bw['sb']} KiB/s; rate_iops=500: fio {iops['fio']:.1f} sb {iops['sb']:.1f}")
if not near(bw["fio"], bw["sb"], 5) or not near(bw["sb"], 2048, 5):
    err(f"rate=2m: stackbench {bw['sb']} KiB/s, fio {bw['fio']}")
if not near(iops["fio"], iops["sb"], 5) or not near(iops["sb"], 500, 5):
    err(f"rate_iops=500: stackbench {iops['sb']:.1f}, fio {iops['fio']:.1f}")
for t in ("fio", "sb"):
    if r[t]["nios"]["read"]["total_ios"] != 200:
        err(f"number_ios=100 loops=2: {t} did {r[t]['nios']['read']['total_ios']} ios, not 200")
    f = load(t, "flow")
    n1, n2 = f["flow1"]["read"]["total_ios"], f["flow2"]["read"]["total_ios"]
    print(f"flow 1:8 {t}: {n1} {n2} ({n2 / max(n1, 1):.2f})")
    if not n1 or not 7.2 <= n2 / n1 <= 8.8:
        err(f"flow {t}: flow2/flow1 = {n2}/{n1}, not 8 (fio's weights)")
    w = load(t, "wait")
    m = {j: os.path.getmtime(f"{tmp}/{t}-wait/{j}.dat") for j in "abc"}
    print(f"wait_for {t}: wall {wall(t, 'wait'):.2f} s, groups {[w[j]['groupid'] for j in 'abc']}, "
          f"last writes {m['b'] - m['a']:.2f} s and {m['c'] - m['b']:.2f} s apart")
    if [w[j]["groupid"] for j in "abc"] != [0, 1, 2]:
        err(f"wait_for {t}: groupids {[w[j]['groupid'] for j in 'abc']}, fio's new_group gives 0 1 2")
    if wall(t, "wait") < 1.8 or m["b"] - m["a"] < 0.5 or m["c"] - m["b"] < 0.5:
        err(f"wait_for {t}: the jobs overlapped")
    e = load(t, "exit")
    rt = e["long"]["job_runtime"]
    print(f"exitall {t}: long job ran {rt} ms, wall {wall(t, 'exit'):.2f} s")
    if rt > 3000 or wall(t, "exit") > 8:
        err(f"exitall {t}: the long job ran on ({rt} ms)")
sys.exit(bad)
PY

[ $FAILED = 0 ] && echo "PASS: job_fio_rate"
