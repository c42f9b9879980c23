#!/bin/bash
# The copy suite on ext4 on a loop device, the "other disk" a second loop
# ext4 (bench.copy_dir): cp, rsync and curl each give MB/s for the large
# file and the photo tree in both directions and files/s for the tree; the
# copies arrived intact (the SHA-256 the suite took of every copy equals
# the source's; a cp that corrupts its copies makes the run fail); nothing
# is left in either directory. Then the default other directory (a private
# dir in /var/tmp) is used and named in the results. Needs root; no md/dm.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test copy-suite --root --shm
sb_cleanup_hook() {
	mountpoint -q "$TMP/mnt" 2>/dev/null && umount "$TMP/mnt"
	mountpoint -q "$TMP/other" 2>/dev/null && umount "$TMP/other"
}

truncate -s 160M "$TMP/img" "$TMP/img2"
LOOP=$(losetup -f --show "$TMP/img") || { fail "losetup"; exit; }
LOOP2=$(losetup -f --show "$TMP/img2") || { fail "losetup"; exit; }
for d in "$LOOP" "$LOOP2"; do mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$d" || fail mkfs; done
mkdir "$TMP/mnt" "$TMP/other"
mount "$LOOP" "$TMP/mnt" && mount "$LOOP2" "$TMP/other" || { fail mount; exit; }

# what a kill -9 leaves: the other dir of a process that is gone (removed
# by the next run), and one of a live process (kept)
tag=$(head -c 8 /proc/sys/kernel/random/boot_id)
sleep 0 & dead=$!; wait $dead
mkdir -p "$TMP/other/stackbench-copy-$tag-$dead-aB3dE9/src" "$TMP/other/stackbench-copy-$tag-$$-xY7zQ1"
"$SB" -q bench --suite copy --target "$TMP/mnt" --set bench.size=24MiB --set bench.copy_dir="$TMP/other" \
	--output-format json --results "$TMP/res" >"$TMP/r.json" || fail "bench --suite copy failed"
[ ! -e "$TMP/other/stackbench-copy-$tag-$dead-aB3dE9" ] && ok "a killed run's other dir is removed by the next run" ||
	fail "the other dir of a killed run (pid $dead) was left"
[ -d "$TMP/other/stackbench-copy-$tag-$$-xY7zQ1" ] && ok "a live run's other dir is kept" ||
	fail "the other dir of a live process was removed"
rmdir "$TMP/other/stackbench-copy-$tag-$$-xY7zQ1"
python3 - "$TMP/r.json" "$TMP/other" <<'PY' || fail "figures check failed"
import sys, sbresults
j = sbresults.load(sys.argv[1]); other = sys.argv[2]
s = sbresults.suite(j, "copy")
figs = s["figures"]
for tool in ("cp", "rsync", "curl"):
    for d in ("in", "out"):
        for k in ("file", "tree"):
            f = figs[f"{tool}_{k}_{d}"]
            assert f["unit"] == "MB/s" and 0.1 < f["value"] < 100000, (tool, k, d, f)
        f = figs[f"{tool}_tree_{d}_files"]
        assert f["unit"] == "files/s" and f["value"] > 0, (tool, d, f)
assert len(figs) == 18, sorted(figs)
assert s["other_dir"].startswith(other + "/stackbench-copy-"), s["other_dir"]
assert s["other_dir_given"] is True and s["other_fstype"] == "ext4", s
assert s["tree_files"] >= 2 and s["file_bytes"] == 12 << 20, s
assert 3 << 20 <= s["tree_bytes"] / s["tree_files"] <= 8 << 20, s
src = s["source_sha256"]
assert len(s["copies"]) == 12, s["copies"]
for c in s["copies"]:
    assert c["intact"] and c["sha256"] == src[c["what"]], c
    assert c["seconds"] > 0
print("copy: ok:", ", ".join(f"{k} {v['value']:.0f}" for k, v in sorted(figs.items()) if k.endswith("_in")))
PY
left=$(find "$TMP/mnt" "$TMP/other" -mindepth 1 -not -name lost+found | head -5)
[ -z "$left" ] || fail "left behind: $left"

sb_results check "$TMP/res"; [ $? = 1 ] && fail "results file does not match docs/results-schema.json"

# compare: the figures as columns, and the backup time for a named size
"$SB" compare --columns stack,copy.rsync_tree_in,copy.cp_tree_out_files --backup-size 2TiB "$TMP/res" >"$TMP/cmp.txt" ||
	fail "compare --backup-size failed"
cat "$TMP/cmp.txt"
python3 - "$TMP/r.json" "$TMP/cmp.txt" <<'PY' || fail "backup estimate check failed"
import re, sys, sbresults
figs = sbresults.suite(sbresults.load(sys.argv[1]), "copy")["figures"]
txt = open(sys.argv[2]).read()
assert "A backup of 2.0 TiB (2.199 TB, 2199023255552 bytes)" in txt, txt
for tool in ("cp", "rsync", "curl"):
    line = [l for l in txt.splitlines() if re.match(r"\S+\s+%s\s" % tool, l)]
    assert line, (tool, txt)
    # the first cell: photos in, "D d H h", "H h M min" or (a fast copy,
    # under an hour) "M min S s", then "(N MB/s)"
    m = re.search(r"(?:(\d+) d (\d+) h|(\d+) h (\d+) min|(\d+) min (\d+) s) \((\d+) MB/s\)", line[0])
    assert m, line
    mbs = figs[f"{tool}_tree_in"]["value"]
    assert int(m.group(7)) == round(mbs), (m.group(7), mbs)
    want_h = 2 * 2**40 / (mbs * 1e6) / 3600
    if m.group(1):
        got_h = int(m.group(1)) * 24 + int(m.group(2))
    elif m.group(3):
        got_h = int(m.group(3)) + int(m.group(4)) / 60
    else:
        got_h = int(m.group(5)) / 60 + int(m.group(6)) / 3600
    assert abs(got_h - want_h) <= max(0.02 * want_h, 1), (got_h, want_h)
PY
"$SB" compare --backup-size 2TiB --format json "$TMP/res" >/dev/null 2>&1
[ $? = 2 ] || fail "--backup-size with --format json: want exit 2"
"$SB" compare --backup-size lots "$TMP/res" >/dev/null 2>&1
[ $? = 2 ] || fail "--backup-size lots: want exit 2"

# A copy that differs from its source must fail the run: a cp that drops
# the last byte of every file it copies, first in PATH.
mkdir "$TMP/bin"
cat >"$TMP/bin/cp" <<'SH'
#!/bin/sh
/bin/cp "$@" || exit
for last; do :; done
find "$last" -type f -exec truncate -s -1 {} + 2>/dev/null || truncate -s -1 "$last"
SH
chmod +x "$TMP/bin/cp"
PATH="$TMP/bin:$PATH" "$SB" -q bench --suite copy --target "$TMP/mnt" --set bench.size=16MiB \
	--set bench.copy_dir="$TMP/other" --output-format json >"$TMP/bad.json" 2>"$TMP/bad.err"
rc=$?
[ $rc != 0 ] || fail "a corrupting cp was not caught"
grep -q "differs from the source" "$TMP/bad.err" || fail "no 'differs from the source': $(cat "$TMP/bad.err")"
left=$(find "$TMP/mnt" "$TMP/other" -mindepth 1 -not -name lost+found | head -5)
[ -z "$left" ] || fail "left behind after the failure: $left"

# default: a private directory in /var/tmp, named in the results, removed
before=$(ls -d /var/tmp/stackbench-copy-* 2>/dev/null | sort)
"$SB" -q bench --suite copy --target "$TMP/mnt" --set bench.size=16MiB --output-format json >"$TMP/d.json" ||
	fail "bench --suite copy (default other dir) failed"
python3 -c '
import sys, sbresults
s = sbresults.suite(sbresults.load(sys.argv[1]), "copy")
assert s["other_dir"].startswith("/var/tmp/stackbench-copy-") and s["other_dir_given"] is False, s
' "$TMP/d.json" || fail "default other_dir not recorded"
after=$(ls -d /var/tmp/stackbench-copy-* 2>/dev/null | sort)
[ "$before" = "$after" ] || fail "left in /var/tmp: $after"
"$SB" bench --suite copy --target "$TMP/mnt" --set bench.copy_dir=relative >/dev/null 2>&1
[ $? = 2 ] || fail "bench.copy_dir=relative: want exit 2"

# kill -9 during a copy run (default other dir, in /var/tmp): the other
# dir is no state object, and `stackbench teardown` finds it by its name
# (this boot's tag, a pid that is gone) and removes it
before=$(ls -d /var/tmp/stackbench-copy-* 2>/dev/null | sort)
"$SB" -q bench --suite copy --target "$TMP/mnt" --set bench.size=48MiB --output-format json >/dev/null 2>&1 &
pid=$!
mine=
for ((i = 0; i < 600; i++)); do
	mine=$(comm -13 <(echo "$before") <(ls -d /var/tmp/stackbench-copy-"$tag"-* 2>/dev/null | sort) | head -1)
	[ -n "$mine" ] && break
	sleep 0.1
done
# killed while one of its tools runs (rsync forks: its children too)
descendants() { local k; for k in $(pgrep -P "$1"); do echo "$k"; descendants "$k"; done; }
for ((i = 0; i < 300; i++)); do
	kids=$(descendants "$pid" | tr '\n' ' ')
	[ -n "$kids" ] && break
	sleep 0.1
done
[ -n "$kids" ] || fail "no copy tool of the run to kill was seen within 30 s"
kill -9 "$pid"; wait "$pid" 2>/dev/null
# its cp, rsync or curl dies with it (else it keeps writing into what
# teardown removes, and holds the target's mount busy: this test's cleanup
# then could not unmount it, 2026-12-02)
for ((i = 0; i < 20; i++)); do   # SIGKILL with its parent: gone at once
	alive=$(for k in $kids; do kill -0 "$k" 2>/dev/null && echo "$k"; done)
	[ -z "$alive" ] && break
	sleep 0.1
done
[ -z "$alive" ] && ok "the killed run's copy tools (${kids:-none running}) died with it" ||
	fail "a copy tool outlived the killed run: $(ps -o pid,args -p "$(echo $alive | tr ' ' ,)" | tail -n +2)"
if [ -z "$mine" ] || [ ! -d "$mine" ]; then
	fail "the killed copy run left no other dir in /var/tmp to find ('$mine')"
else
	"$SB" teardown --all >"$TMP/td.log" 2>&1 || fail "teardown --all: $(cat "$TMP/td.log")"
	[ ! -e "$mine" ] && ok "teardown --all removed $mine, left by a copy run killed with -9" ||
		{ fail "teardown --all left $mine"; rm -rf "$mine"; }
	grep -qF "removed $mine" "$TMP/td.log" || fail "teardown did not say it removed $mine: $(cat "$TMP/td.log")"
fi
sb_end
