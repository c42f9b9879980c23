#!/bin/bash
# The bonnie and quick suites on ext4 on a loop device: every figure is
# there, positive and sane (MB/s in 0.1..100000, /s > 0), CPU % present for
# bonnie's, nothing left in the directory. Needs root; no md/dm.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test bench-suites
sb_host_loop 256M || { fail "losetup"; exit; }
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" || fail mkfs
mkdir "$TMP/mnt" && mount "$LOOP" "$TMP/mnt" || { fail mount; exit; }

"$SB" -q bench --suite bonnie,quick --target "$TMP/mnt" --set bench.size=32MiB \
	--set bench.runtime=1s --output-format json >"$TMP/r.json" || fail "bench failed"
python3 - "$TMP/r.json" "$(basename "$LOOP")" <<'PY' || fail "figures check failed"
import json, sys
j = json.load(open(sys.argv[1])); loop = sys.argv[2]
want = {
    "bonnie": ["block_output", "rewrite", "block_input", "seeks", "seq_create", "seq_stat",
               "seq_delete", "ran_create", "ran_stat", "ran_delete"],
    "quick": ["seq_write", "seq_read", "randread_iops", "randwrite_iops"],
}
seen = set()
for s in j["suites"]:
    for k in ("suite", "repetition", "target", "notes", "figures", "jobs", "disk_util"):
        assert k in s, f"suite object lacks {k}"
    name = s["suite"]; seen.add(name)
    figs = s["figures"]
    assert sorted(figs) == sorted(want[name]), f"{name}: figures {sorted(figs)}"
    for f, v in figs.items():
        val, unit = v["value"], v["unit"]
        if unit == "MB/s":
            assert 0.1 <= val <= 100000, f"{name}.{f} = {val} MB/s"
        else:
            assert unit == "/s" and val > 0, f"{name}.{f} = {val} {unit}"
        if name == "bonnie":
            assert "cpu_pct" in v and v["cpu_pct"] >= 0, f"{name}.{f}: cpu_pct"
        print(f"{name:7s} {f:16s} {val:12.1f} {unit:5s} cpu={v.get('cpu_pct', '-')}")
    du = {d["name"]: d for d in s["disk_util"]}
    assert loop in du and du[loop]["write_ios"] > 0, f"{name}: no writes on {loop}: {du}"
    assert any("2x RAM" in n for n in s["notes"]) or name != "bonnie", f"{name}: cache note missing"
assert seen == set(want), seen
PY
left=$(ls -A "$TMP/mnt" | grep -v '^lost+found$')
[ -z "$left" ] || fail "suites left files behind: $left"

# bad usage exits 2
"$SB" -q bench --suite bonnie --target "$TMP/mnt" --set devices.loop.size=1G >/dev/null 2>&1
[ $? = 2 ] || fail "unknown --set key did not exit 2"
"$SB" -q bench --suite nosuch --target "$TMP/mnt" >/dev/null 2>&1
[ $? = 2 ] || fail "unknown suite did not exit 2"
# no room: a clear ENOSPC failure, nothing written
"$SB" -q bench --suite dd --target "$TMP/mnt" --set bench.size=100GiB >/dev/null 2>"$TMP/err"
[ $? = 1 ] && grep -q "only .* free" "$TMP/err" || fail "no-room check: $(cat "$TMP/err")"

[ $FAILED = 0 ] && echo "PASS: bench_suites"
