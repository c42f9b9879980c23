#!/bin/bash
# The bonnie and quick suites on ext4 on a loop device: every figure is
# there, positive and sane (MB/s in 0.1..100000, /s > 0), CPU % present for
# bonnie's, nothing left in the directory; fio-matrix run to SNIA PTS
# steady state on one cell (below). Needs root; no md/dm.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test bench-suites --root --shm
sb_host_loop 256M || { fail "losetup"; exit; }
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" || fail mkfs
mkdir "$TMP/mnt" && mount "$LOOP" "$TMP/mnt" || { fail mount; exit; }

"$SB" -q bench --suite bonnie,quick --target "$TMP/mnt" --set bench.size=32MiB \
	--set bench.runtime=1s --output-format json >"$TMP/r.json" || fail "bench failed"
python3 - "$TMP/r.json" "$(basename "$LOOP")" <<'PY' || fail "figures check failed"
import sys, sbresults
j = sbresults.load(sys.argv[1]); loop = sys.argv[2]
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

# fio-matrix to SNIA PTS steady state (bench.fio_matrix.steady: pts) on one
# cell (bench.fio_matrix.cells: qd32_j1, 2 MiB): its write and its read in
# rounds; the steady block checked against the rounds' own jobs: the rule
# recomputed from their figures at every round (attained at the first
# round that meets it, else 25 rounds), the window the last 5, the figure
# the window's mean, the why; the note in compare's table and the report,
# compare --format fio-matrix's last round per phase and steady lines.
# Page cache drops off (direct I/O; each drop takes a second on a loaded
# host). Adds 3-15 s when quiet (10 to 50 jobs of ~0.3 s: the engine polls at
# 200 ms); 27 s at a host load of 10-20, where neither figure attained it.
STACKBENCH_NO_DROP_CACHES=1 "$SB" -q bench --suite fio-matrix --target "$TMP/mnt" --set bench.size=2MiB \
	--set bench.fio_matrix.steady=pts --set bench.fio_matrix.cells=qd32_j1 --results "$TMP/pts" \
	>/dev/null 2>"$TMP/err" || fail "fio-matrix steady pts: $(cat "$TMP/err")"
"$SB" compare "$TMP"/pts/*.json >"$TMP/pts.txt" 2>&1 || fail "compare of the pts run"
"$SB" -q report -o "$TMP/pts.html" "$TMP"/pts/*.json 2>&1 || fail "report of the pts run"
"$SB" compare --format fio-matrix "$TMP"/pts/*.json >"$TMP/ptsm.txt" 2>&1 || fail "compare --format fio-matrix"
python3 - "$TMP"/pts/*.json "$TMP/pts.txt" "$TMP/pts.html" "$TMP/ptsm.txt" <<'PY' || fail "fio-matrix steady state check failed"
import html, sys, sbresults
s = sbresults.suite(sbresults.load(sys.argv[1]), "fio-matrix")
st = s["steady"]; figs = st["figures"]
assert "SNIA PTS" in st["rule"], st["rule"]
assert sorted(figs) == ["read_qd32_j1", "write_qd32_j1"] == sorted(s["figures"]), (sorted(figs), sorted(s["figures"]))
def rule(w):
    m = sum(w) / 5
    slope = sum((i - 2) * (w[i] - m) for i in range(5)) / 10
    return 100 * (max(w) - min(w)) / m, 100 * abs(slope) * 4 / m
for f, b in figs.items():
    rw = f.split("_")[0]
    ys = [j[rw]["bw_bytes"] / 1e6 for j in s["jobs"] if j["job options"]["rw"] == rw]
    rounds = [j["steady_round"] for j in s["jobs"] if j["job options"]["rw"] == rw]
    assert rounds == list(range(1, len(ys) + 1)) and len(ys) == b["rounds"], (f, rounds, b["rounds"])
    assert 5 <= b["rounds"] <= 25, b
    met = [n for n in range(5, len(ys) + 1) if (lambda a, e: a <= 20 and e <= 10)(*rule(ys[n - 5:n]))]
    if b["attained"]:
        assert met and met[0] == b["rounds"], (f, met, b)
        assert b["why"].startswith("attained at round %d: over rounds %d-%d" % (b["rounds"], b["rounds"] - 4, b["rounds"])), b["why"]
    else:
        assert not met and b["rounds"] == 25, (f, met, b)
        assert b["why"].startswith("not attained in 25 rounds"), b["why"]
    w = ys[-5:]
    assert all(abs(x - y) <= 1e-6 * y for x, y in zip(b["window"], w)), (b["window"], w)
    a, e = rule(w)
    assert abs(b["range_pct"] - a) < 1e-6 and abs(b["excursion_pct"] - e) < 1e-6, (b, a, e)
    mean = sum(w) / 5
    assert abs(s["figures"][f]["value"] - mean) <= 0.051 + 1e-9 * mean, (s["figures"][f], mean)
    print("%s: %d rounds, %s, window %s" % (f, b["rounds"], b["why"], ["%.0f" % x for x in w]))
note = [n for n in s["notes"] if n.startswith("fio-matrix steady state (SNIA PTS")]
assert len(note) == 1, s["notes"]
for f, b in figs.items():
    assert ("%s (%d rounds)" % (f, b["rounds"])) in note[0], note
txt = open(sys.argv[2]).read(); page = html.unescape(open(sys.argv[3]).read())
assert note[0] in txt, txt
assert note[0] in page, "the steady state note is not in the report"
# compare --format fio-matrix: the last round's job per phase, a line per figure
m = open(sys.argv[4]).read().splitlines()
assert len([l for l in m if l.split()[1:2] in (["read"], ["write"])]) == 2, m
for f, b in figs.items():
    assert any(l.endswith("%s: SNIA PTS steady state %s" % (f, b["why"])) for l in m), (f, m)
PY

# bad usage exits 2
"$SB" -q bench --suite bonnie --target "$TMP/mnt" --set devices.loop.size=1G >/dev/null 2>&1
[ $? = 2 ] || fail "unknown --set key did not exit 2"
"$SB" -q bench --suite nosuch --target "$TMP/mnt" >/dev/null 2>&1
[ $? = 2 ] || fail "unknown suite did not exit 2"
# no room: a clear ENOSPC failure, nothing written
"$SB" -q bench --suite dd --target "$TMP/mnt" --set bench.size=100GiB >/dev/null 2>"$TMP/err"
[ $? = 1 ] && grep -q "only .* free" "$TMP/err" || fail "no-room check: $(cat "$TMP/err")"

sb_end
