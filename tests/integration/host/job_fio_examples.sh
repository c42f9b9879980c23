#!/bin/bash
# fio's own job files (tests/fio-examples, fio 3.33's examples/ and t/jobs/,
# each as its small overlaid copy, tests/fio-examples/README.md) against
# tests/fio-examples/MANIFEST:
#  - every `run` file runs under Debian's fio and under `stackbench job
#    --output-format=json`, in twin directories on one ext4, and the two
#    JSONs compare: the key sets (stackbench's must be fio's; exceptions:
#    none), each job's "job options" and the "global options", the number of
#    jobs, and plausibility: per job and direction, io_bytes within a factor
#    FEX_FACTOR (5) of fio's, and bw_bytes too when both ran at least 200 ms
#    (the machine is shared: a loaded-machine factor, not a quiet-machine
#    figure); for the first FEX_STRACE (4) run/differs files, both strace -f -c'd, the
#    same I/O system-call classes (pread64/pwrite64/preadv/pwritev,
#    io_submit/io_getevents, fadvise64, fsync/fdatasync);
#  - every `differs` file (`differs FILE CLASS[,CLASS...]`, CLASS one of
#    keys, options, jobs, syscalls, figures) runs the same way; a difference
#    in a listed class is printed as known, one in another class fails, and
#    a listed class (not figures) that no longer differs fails too, so the
#    line is edited when a family lands;
#  - every `refused` file exits non-zero naming one of its listed options,
#    and leaves nothing in its directory but the job file;
#  - every `fails FILE TEXT -- WHY` file exits non-zero with TEXT in its
#    message: a known failure that is no refusal by name (WHY says what
#    differs from fio), never a silent run;
#  - `hardware` files are not run;
#  - one job file of fio's forms (name=, description=, bare logs, include,
#    comments, $pagesize sums, ${VAR}) makes the same files and jobs.
# Each failure names the file and the comparison. Prints "N of M run" (M:
# the files not marked hardware). Runtime: 55-70 s on the loaded 2-core
# machine (12 files that run, 1 s each per tool; strace on 4). Needs root, fio and strace.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test job-fio-examples
. "$SB_ROOT/tests/fio-examples/lib.sh"
command -v fio >/dev/null && command -v strace >/dev/null ||
	{ echo "FAIL: needs fio and strace" >&2; FAILED=1; exit; }
SB=$(readlink -f "$SB")
FEX_FACTOR=${FEX_FACTOR:-5}
FEX_STRACE=${FEX_STRACE:-4}

sb_host_loop 256M || { fail "losetup"; exit; }
mkfs.ext4 -q -F "$LOOP" && mkdir "$TMP/fs" && mount "$LOOP" "$TMP/fs" || { fail "mkfs/mount"; exit; }

# fio's job-file forms, one file both tools run: name= renames the job
# (JSON, logs) but not its files or its numjobs clones; description=; bare
# write_*_log (the job's name); inline comments; include beside the file;
# $pagesize sums; ${VAR}. The same files appear (fio's slat logs of a
# psync job aside: the logs family), with the same job names and options.
mkdir -p "$TMP/fs/forms/fio" "$TMP/fs/forms/sb" "$TMP/forms"
printf 'rw=read ; the included option\nbs=$pagesize*2\n' >"$TMP/forms/inc.fio"
cat >"$TMP/forms/forms.fio" <<'EOF'
[global]
write_bw_log
size=${FEX_FORMS_SIZE}
[j1]
write_iops_log=
include inc.fio
[j2]
name=other ; renamed
description=some text # a comment
rw=write
numjobs=2
write_lat_log
EOF
for t in fio sb; do
	if [ $t = fio ]; then cmd=(fio); else cmd=("$SB" -q job); fi
	(cd "$TMP/fs/forms/$t" && FEX_FORMS_SIZE=64k timeout -k 10 60 "${cmd[@]}" --output-format=json \
		--output="$TMP/forms/$t.json" "$TMP/forms/forms.fio" >/dev/null 2>"$TMP/forms/$t.err") ||
		fail "forms.fio: $t exited $?: $(tail -2 "$TMP/forms/$t.err")"
	(cd "$TMP/fs/forms/$t" && ls | grep -v _slat) >"$TMP/forms/$t.ls"
done
diff "$TMP/forms/fio.ls" "$TMP/forms/sb.ls" >/dev/null ||
	fail "forms.fio: files: fio $(echo $(cat "$TMP/forms/fio.ls")) stackbench $(echo $(cat "$TMP/forms/sb.ls"))"
python3 - "$TMP/forms" <<'PY' || FAILED=1
import json, sys
d = sys.argv[1]
j = {t: json.load(open(f"{d}/{t}.json")) for t in ("fio", "sb")}
if j["fio"].get("global options") != j["sb"].get("global options"):
    print(f"FAIL: forms.fio: global options: fio {j['fio'].get('global options')} "
          f"stackbench {j['sb'].get('global options')}", file=sys.stderr)
    sys.exit(1)
def jobs(t):
    return [(x["jobname"], x.get("job options"), x.get("desc"), x["read"]["io_bytes"] + x["write"]["io_bytes"])
            for x in j[t]["jobs"]]
if jobs("fio") != jobs("sb"):
    print(f"FAIL: forms.fio: jobs (name, options, desc, bytes): fio {jobs('fio')} stackbench {jobs('sb')}",
          file=sys.stderr)
    sys.exit(1)
PY
rm -rf "$TMP/fs/forms"

ran=0 differ=0 total=0 straced=0 failing=0
while read -r status file rest; do
	[ "$status" = hardware ] && continue
	total=$((total + 1))
	name=${file%.fio}; name=${name//\//_}
	case $status in
	run | differs)
		for t in fio sb; do
			d=$TMP/fs/$t/$name
			mkdir -p "$d" && fex_overlay "$SB_ROOT/tests/fio-examples/$file" "$d/job.fio"
			if [ $t = fio ]; then cmd=(fio); else cmd=("$SB" -q job); fi
			pre=()
			[ $straced -lt "$FEX_STRACE" ] && pre=(strace -f -c -o "$TMP/$t-$name.count")
			(cd "$d" && timeout -k 10 60 "${pre[@]}" "${cmd[@]}" --output-format=json --output="$TMP/$t-$name.json" \
				job.fio >/dev/null 2>"$TMP/$t-$name.err") ||
				fail "$file: $t exited $?: $(tail -2 "$TMP/$t-$name.err")"
			rm -rf "$d"
		done
		straced=$((straced + 1))
		python3 - "$TMP" "$name" "$file" "$FEX_FACTOR" "$status" "${rest%% *}" <<'PY'
import json, os, sys
tmp, name, file, factor, status = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
known = set(sys.argv[6].split(",")) if status == "differs" else set()
bad, seen = 0, set()
# the comparison classes a `differs` line may list
CLASS = {"key set": "keys", "global options": "options", "job options": "options", "jobs": "jobs",
         "job names": "jobs", "io_bytes": "figures", "bw_bytes": "figures", "system-call classes": "syscalls"}
def err(what, msg):
    global bad
    c = next(v for k, v in CLASS.items() if what.endswith(k))
    seen.add(c)
    if c in known:
        print(f"known ({c}): {file}: {what}: {msg}")
        return
    print(f"FAIL: {file}: {what}: {msg}", file=sys.stderr)
    bad = 1

def keys(v, path=""):
    """every key path; list items as [], option dicts' own keys left out"""
    out = set()
    if isinstance(v, dict):
        for k, x in v.items():
            p = f"{path}.{k}" if path else k
            out.add(p)
            if k not in ("job options", "global options"):
                out |= keys(x, p)
    elif isinstance(v, list):
        for x in v:
            out |= keys(x, path + "[]")
    return out

try:
    j = {t: json.load(open(f"{tmp}/{t}-{name}.json")) for t in ("fio", "sb")}
except (OSError, ValueError) as e:
    err("JSON", f"not readable ({e})")
    sys.exit(1)
kf, ks = keys(j["fio"]), keys(j["sb"])
if kf != ks:
    err("key set", f"only fio's: {sorted(kf - ks)[:8]}; only stackbench's: {sorted(ks - kf)[:8]}")
if j["fio"].get("global options") != j["sb"].get("global options"):
    err("global options", f"fio {j['fio'].get('global options')} stackbench {j['sb'].get('global options')}")
jf, js = j["fio"].get("jobs", []), j["sb"].get("jobs", [])
if len(jf) != len(js):
    err("jobs", f"fio reports {len(jf)}, stackbench {len(js)}")
for a, b in zip(jf, js):
    n = a.get("jobname")
    if n != b.get("jobname"):
        err("job names", f"fio {n} stackbench {b.get('jobname')}")
    if a.get("job options") != b.get("job options"):
        err(f"job {n}: job options", f"fio {a.get('job options')} stackbench {b.get('job options')}")
    for dr in ("read", "write", "trim"):
        x, y = a.get(dr, {}), b.get(dr, {})
        fb, sbb = x.get("io_bytes", 0), y.get("io_bytes", 0)
        if (fb > 0) != (sbb > 0) or (fb and not 1 / factor <= sbb / fb <= factor):
            err(f"job {n}: {dr} io_bytes", f"fio {fb} stackbench {sbb} (factor {factor:g})")
        if fb and sbb and x.get("runtime", 0) >= 200 and y.get("runtime", 0) >= 200:
            r = y.get("bw_bytes", 0) / max(x.get("bw_bytes", 0), 1)
            if not 1 / factor <= r <= factor:
                err(f"job {n}: {dr} bw_bytes", f"fio {x.get('bw_bytes')} stackbench {y.get('bw_bytes')} "
                    f"(ratio {r:.2f}, factor {factor:g})")

def classes(path):
    c = set()
    for line in open(path):
        f = line.split()
        if len(f) >= 5 and f[3].isdigit() and f[-1] in ("pread64", "pwrite64", "preadv", "pwritev", "io_submit",
                                                         "io_getevents", "fadvise64", "fsync", "fdatasync"):
            c.add(f[-1])
    return c
if os.path.exists(f"{tmp}/fio-{name}.count"):
    cf, cs = classes(f"{tmp}/fio-{name}.count"), classes(f"{tmp}/sb-{name}.count")
    if cf != cs:
        err("system-call classes", f"fio {sorted(cf)} stackbench {sorted(cs)}")
    checked = {"keys", "options", "jobs", "syscalls"}
else:
    checked = {"keys", "options", "jobs"}
# a difference that went away: the MANIFEST line is to be edited (figures
# are noisy and never count as gone)
for c in sorted((known & checked) - seen):
    print(f"FAIL: {file}: MANIFEST says it differs in {c}, but it no longer does: drop '{c}' "
          f"(or make the line 'run')", file=sys.stderr)
    bad = 1
sys.exit(bad if bad else (3 if known & seen else 0))
PY
		rc=$?; [ $rc = 0 ] && ran=$((ran + 1)); [ $rc = 3 ] && differ=$((differ + 1)); [ $rc = 1 ] && FAILED=1
		;;
	refused)
		d=$TMP/fs/refused/$name
		mkdir -p "$d" && fex_overlay "$SB_ROOT/tests/fio-examples/$file" "$d/job.fio"
		(cd "$d" && timeout -k 10 60 "$SB" -q job job.fio >/dev/null 2>"$TMP/sb-$name.err"); rc=$?
		why=$(fex_refusal "$TMP/sb-$name.err")
		if [ $rc = 0 ]; then
			fail "$file: MANIFEST says refused ($rest), but it ran (exit 0): make the line 'run'"
		elif [[ ",$rest," != *",$why,"* ]]; then
			fail "$file: refused naming '$why', not one of the MANIFEST's '$rest' (exit $rc): $(head -1 "$TMP/sb-$name.err")"
		fi
		left=$(cd "$d" && find . -mindepth 1 ! -name job.fio)
		[ -n "$left" ] && fail "$file: the refusal left $(echo $left)"
		rm -rf "$d"
		;;
	fails)
		# a known failure, loud and not by an option's name: stackbench
		# exits non-zero with a first line containing TEXT (MANIFEST says why)
		d=$TMP/fs/fails/$name
		mkdir -p "$d" && fex_overlay "$SB_ROOT/tests/fio-examples/$file" "$d/job.fio"
		(cd "$d" && timeout -k 10 60 "$SB" -q job job.fio >/dev/null 2>"$TMP/sb-$name.err"); rc=$?
		if [ $rc = 0 ]; then
			fail "$file: MANIFEST says it fails ($rest), but it ran (exit 0): make the line 'run'"
		elif ! grep -qF -- "${rest%% -- *}" "$TMP/sb-$name.err"; then
			fail "$file: failed otherwise than the MANIFEST's '${rest%% -- *}' (exit $rc): $(head -1 "$TMP/sb-$name.err")"
		fi
		failing=$((failing + 1))
		rm -rf "$d"
		;;
	*) fail "MANIFEST: '$status $file': the status is run, differs, refused, fails or hardware" ;;
	esac
done < <(fex_manifest)
echo "$ran of $total run ($differ more run with the differences their MANIFEST line lists; $failing fail loudly as their line says)"
[ $FAILED = 0 ] && echo "PASS: job_fio_examples"
