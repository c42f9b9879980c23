#!/bin/bash
# Per-device statistics: a job on a loop device, and a job on ext4 on that
# loop device (directory target), both report non-zero I/O for the loop
# device in "disk_util" (fio's keys) and, asked for with --watch, sane
# iostat -x fields in "stackbench_iostat". Needs root; no md/dm.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test bench-iostat --root --shm
sb_host_loop 128M || { fail "losetup"; exit; }
name=$(basename "$LOOP")

check() { # json-file what rw
	python3 - "$1" "$name" "$2" "$3" <<'PY' || fail "$2: disk_util check failed"
import sys, sbresults
j = sbresults.load(sys.argv[1]); name, what, rw = sys.argv[2:5]
du = {d["name"]: d for d in j["disk_util"]}
assert name in du, f"{what}: {name} not in disk_util {list(du)}"
d = du[name]
x = {e["name"]: e for e in j.get("stackbench_iostat", [])}
assert name in x, f"{what}: {name} not in stackbench_iostat {list(x)}"
d = {**d, **x[name]}
for k in ("read_ios", "write_ios", "read_ticks", "write_ticks", "in_queue", "util", "read_bytes",
          "write_bytes", "util_pct", "r_await_ms", "w_await_ms", "rareq_kb", "wareq_kb",
          "read_mbps", "write_mbps"):
    assert k in d, f"{what}: key {k} missing"
ios = d["read_ios"] if rw == "read" else d["write_ios"]
mb = d["read_mbps"] if rw == "read" else d["write_mbps"]
assert ios > 0, f"{what}: no {rw} I/O seen on {name}: {d}"
assert mb > 0, f"{what}: {rw} MB/s is 0: {d}"
assert 0 < d["util_pct"] <= 100, f"{what}: util {d['util_pct']}"
job = j["jobs"][0][rw]
# the device saw at least what the job moved (direct I/O: nothing cached)
assert d[rw + "_bytes"] >= job["io_bytes"], f"{what}: device {d[rw+'_bytes']} < job {job['io_bytes']}"
if rw == "read":
    # 64 KiB sequential reads: the block layer may merge them, never split below
    assert d["rareq_kb"] >= 63.9, f"{what}: rareq_kb {d['rareq_kb']} for 64 KiB reads"
print(f"{what}: {name} {rw}_ios={ios} {rw} MB/s={mb} util={d['util_pct']}%")
PY
}

"$SB" -q job --direct=1 --ioengine=libaio --target "$LOOP" --rw read --bs 64k --iodepth 8 --size 64M --watch "$LOOP" --output-format json \
	>"$TMP/a.json" || fail "block-device job failed"
check "$TMP/a.json" "block device" read

mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" || fail mkfs
mkdir "$TMP/mnt" && mount "$LOOP" "$TMP/mnt" || { fail mount; exit; }
# watched explicitly by node too (deduplicated with the target's own device)
"$SB" -q job --direct=1 --ioengine=libaio --unlink=1 --target "$TMP/mnt" --rw write --bs 1m --iodepth 4 --size 32M --watch "$LOOP" \
	--output-format json >"$TMP/b.json" || fail "directory job failed"
check "$TMP/b.json" "ext4 directory" write
[ "$(sb_results len "$TMP/b.json" disk_util)" = 1 ] ||
	fail "device listed twice"
[ -z "$(ls -A "$TMP/mnt" | grep -v lost+found)" ] || fail "job left files: $(ls "$TMP/mnt")"

sb_end
