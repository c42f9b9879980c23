#!/bin/bash
# fio's I/O engines, side by side: the same tiny job (64 ios of 4 KiB, a
# sequential write then a read of the same file) run by Debian's fio 3.33
# and by `stackbench job` with each engine stackbench has, strace'd: the
# system calls made on the job's file (by name, with strace -y) and the
# engine's own calls (io_submit, ...) are the same in kind and number (the
# file set-up's fallocate and fadvise are not the engine's: not compared); the
# JSON has the same ios per direction, slat for exactly the engines fio
# measures it for, and the same iodepth_level; cpuio burns about as many
# ios as fio's in a second, with no bytes; exec runs its program as fio's
# does. An engine stackbench lacks is
# refused by name. Runtime: about 25 s on a loaded machine. Needs root, strace and Debian's fio.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test job-engines --root --shm
command -v fio >/dev/null && command -v strace >/dev/null ||
	{ fail "needs fio and strace"; exit 1; }
SB=$(readlink -f "$SB")
ENGINES="sync psync vsync pvsync pvsync2 libaio posixaio io_uring null ftruncate"
TRACE=read,write,lseek,pread64,pwrite64,readv,writev,preadv,pwritev,preadv2,pwritev2,ftruncate,io_setup,io_submit,io_getevents,io_uring_setup,io_uring_register,io_uring_enter

# run TOOL ENGINE RW: in $TMP/TOOL-ENGINE (the file stays between write and read)
run() {
	local tool=$1 e=$2 rw=$3 d="$TMP/$1-$2" cmd
	mkdir -p "$d"
	if [ "$tool" = fio ]; then cmd=(fio); else cmd=("$SB" -q job); fi
	(cd "$d" && strace -f -y --seccomp-bpf -e trace=$TRACE -o "$d/calls-$rw" "${cmd[@]}" --name=t --ioengine="$e" --rw="$rw" --size=256k \
		--bs=4k --output-format=json --output="$d/$rw.json" >/dev/null 2>"$d/err-$rw") ||
		fail "$tool $e $rw: $(tail -3 "$d/err-$rw")"
}

# a build without liburing refuses io_uring by name (meson: optional)
(cd "$TMP" && "$SB" -q job --name=x --size=1m --ioengine=io_uring --rw=write --unlink=1 --output=/dev/null) 2>"$TMP/e" >/dev/null ||
	{ grep -q "ioengine=io_uring" "$TMP/e" || fail "io_uring: $(cat "$TMP/e")"; ENGINES=${ENGINES/io_uring/}; }
for e in $ENGINES; do
	for rw in write read; do
		[ "$e" = ftruncate ] && [ "$rw" = read ] && continue   # fio's ftruncate: writes only
		run fio "$e" $rw
		run sb "$e" $rw
	done
done

python3 - "$TMP" $ENGINES <<'PY' || fail "stackbench and fio differ (above)"
import collections, json, os, re, sys
tmp, engines = sys.argv[1], sys.argv[2:]
bad = 0
def err(msg):
    global bad
    print("FAIL:", msg)
    bad = 1

OWN = ("io_submit", "io_getevents", "io_setup", "io_uring_setup", "io_uring_register", "io_uring_enter")
def calls(path):
    """calls on the job's file t.0.0 by name, and the engine's own"""
    c = collections.Counter()
    for line in open(path):
        m = re.match(r"(?:\d+ +)?(\w+)\((\d+)<([^>]*)>", line)
        if m and m.group(3).endswith("/t.0.0") and m.group(1) not in ("close", "fstat", "newfstatat",
                                                                      "fadvise64", "fsync", "fdatasync", "fallocate"):
            c[m.group(1)] += 1
        m = re.match(r"(?:\d+ +)?(\w+)\(", line)
        if m and m.group(1) in OWN:
            c[m.group(1)] += 1
    return c

for e in engines:
    for rw in ("write", "read"):
        d = {t: os.path.join(tmp, f"{t}-{e}") for t in ("fio", "sb")}
        if not os.path.exists(d["fio"] + f"/calls-{rw}"):
            continue
        c = {t: calls(d[t] + f"/calls-{rw}") for t in d}
        # io_uring: one enter per submit (with GETEVENTS), one more per wait
        # that found the completion ring empty: a few either way
        enter = {t: c[t].pop("io_uring_enter", 0) for t in d}
        if abs(enter["fio"] - enter["sb"]) > 16 or (enter["fio"] >= 64) != (enter["sb"] >= 64):
            err(f"{e} {rw}: io_uring_enter fio {enter['fio']} stackbench {enter['sb']}")
        if c["fio"] != c["sb"]:
            err(f"{e} {rw}: system calls fio {dict(c['fio'])} stackbench {dict(c['sb'])}")
        try:
            j = {t: json.load(open(d[t] + f"/{rw}.json"))["jobs"][0] for t in d}
        except (OSError, ValueError, KeyError, IndexError) as x:
            err(f"{e} {rw}: no JSON ({x})")
            continue
        for dr in ("read", "write"):
            f, s = j["fio"][dr], j["sb"][dr]
            if f["total_ios"] != s["total_ios"]:
                err(f"{e} {rw}: {dr} total_ios: fio {f['total_ios']} stackbench {s['total_ios']}")
            if (f["slat_ns"]["N"] > 0) != (s["slat_ns"]["N"] > 0):
                err(f"{e} {rw}: {dr} slat samples: fio {f['slat_ns']['N']} stackbench {s['slat_ns']['N']}")
        if j["fio"]["iodepth_level"].keys() != j["sb"]["iodepth_level"].keys():
            err(f"{e} {rw}: iodepth_level fio {j['fio']['iodepth_level']} stackbench {j['sb']['iodepth_level']}")
    print(f"{e}: same calls as fio")
sys.exit(bad)
PY

# cpuio: no file, ios without bytes (runtime and bandwidth 0), the burn
# cpuload % of the time: about as many ios as fio's in the same second
for t in fio sb; do
	if [ $t = fio ]; then cmd=(fio); else cmd=("$SB" -q job); fi
	"${cmd[@]}" --name=c --ioengine=cpuio --cpuload=50 --cpuchunks=20000 --time_based --runtime=1 \
		--output-format=json --output="$TMP/cpu-$t.json" >/dev/null 2>&1 || fail "$t cpuio"
done
python3 - "$TMP" <<'PY' || fail "cpuio differs from fio's (above)"
import json, sys
j = {t: json.load(open(f"{sys.argv[1]}/cpu-{t}.json"))["jobs"][0]["read"] for t in ("fio", "sb")}
for t in j:
    r = j[t]
    if r["io_bytes"] or r["runtime"] or r["bw"] or r["slat_ns"]["N"] or r["clat_ns"]["N"] != r["total_ios"]:
        print(f"FAIL: cpuio {t}: bytes {r['io_bytes']} runtime {r['runtime']} bw {r['bw']} "
              f"slat {r['slat_ns']['N']} clat {r['clat_ns']['N']} of {r['total_ios']} ios")
        sys.exit(1)
f, s = j["fio"]["total_ios"], j["sb"]["total_ios"]
if not (f / 2 <= s <= f * 2):
    print(f"FAIL: cpuio: {s} ios in 1 s, fio {f}")
    sys.exit(1)
print(f"cpuio: {s} ios (fio {f}), no bytes, as fio's")
PY

# exec: the program started once with %n/%r expanded, its output in
# NAME.stdout, ios every 100 ms without bytes, as fio's
for t in fio sb; do
	if [ $t = fio ]; then cmd=(fio); else cmd=("$SB" -q job); fi
	mkdir -p "$TMP/exec-$t"
	(cd "$TMP/exec-$t" && "${cmd[@]}" --name=x --ioengine=exec --program=/bin/echo --arguments="%n ran %r" \
		--time_based --runtime=1 --output-format=json --output=out.json >/dev/null 2>&1) || fail "$t exec"
done
cmp -s "$TMP/exec-fio/x.stdout" "$TMP/exec-sb/x.stdout" && [ "$(cat "$TMP/exec-sb/x.stdout")" = "x ran 1" ] ||
	fail "exec's x.stdout: fio '$(cat "$TMP/exec-fio/x.stdout")' stackbench '$(cat "$TMP/exec-sb/x.stdout")'"
python3 - "$TMP" <<'PY' || fail "exec differs from fio's (above)"
import json, sys
j = {t: json.load(open(f"{sys.argv[1]}/exec-{t}/out.json"))["jobs"][0]["read"] for t in ("fio", "sb")}
f, s = j["fio"]["total_ios"], j["sb"]["total_ios"]
if j["sb"]["io_bytes"] or not (f / 2 <= s <= f * 2):
    print(f"FAIL: exec: {s} ios, {j['sb']['io_bytes']} bytes in 1 s; fio {f}")
    sys.exit(1)
print(f"exec: {s} ios (fio {f}), no bytes, the same output file")
PY

# an engine stackbench lacks is refused by name (exit 2)
"$SB" -q job --name=x --size=1m --ioengine=rdma >/dev/null 2>"$TMP/e"
[ $? = 2 ] && grep -q "ioengine=rdma" "$TMP/e" || fail "ioengine=rdma not refused by name: $(cat "$TMP/e")"

sb_end
