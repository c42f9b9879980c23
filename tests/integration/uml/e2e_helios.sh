#!/bin/bash
# The Helios4 reproduction end to end, small: build-and-test the five shipped
# Helios4 stacks in one command; the table has five rows with positive
# write / read-write / read figures; five results files are written, each
# recording the host, the sandbox flag and the stack as built (LUKS sector
# size and cipher read back from the kernel); `compare` on those files prints
# the same table the run printed; --chart writes a valid SVG and PNG; nothing
# is left behind. Needs md and device-mapper: outside the throwaway kernel it
# boots one and runs itself inside.
set -u
src=$(cd "$(dirname "$0")/../../.." && pwd)
. "$src/tests/integration/lib.sh"
sb_test e2e --uml --scratch -- "$@"

stacks=(omv-ext4-lvm ext4 luks512 luks4096 luks4096-cesa)
files=()
for s in "${stacks[@]}"; do files+=("$src/stacks/$s.yml"); done

# Small enough for the throwaway kernel, large enough to cross every layer.
"$sb" --no-progress build-and-test --results "$tmp/res" --chart "$tmp/run.svg" \
	--set "devices.loop.dir=$tmp/work" --set devices.loop.size=96MiB \
	--set bench.size=16MiB --set bench.files=0 \
	"${files[@]}" > "$tmp/table.txt" 2> "$tmp/log.txt"
rc=$?
cat "$tmp/table.txt"
[ $rc -eq 0 ] || { fail "build-and-test exited $rc"; tail -20 "$tmp/log.txt"; }

# The table: a header with the Helios4 columns, then one row per stack.
head -n1 "$tmp/table.txt" | grep -q "Setup.*LUKS sector size.*encryption.*write MB/s.*read-write MB/s.*read MB/s" ||
	fail "table header is not the Helios4 one"
# (the rows end at the first blank line: footnotes and the machine-bound
# note follow; a machine-bound figure carries a " †"; the last column, notes,
# has n and the footnote marks)
sed -n '2,/^$/p' "$tmp/table.txt" | grep . | sed -E 's/ †//g; s/ +(n=[0-9]+)? *(\[[0-9,]+\])? *$//' > "$tmp/rows.txt"
rows=$(grep -c . "$tmp/rows.txt")
[ "$rows" -eq 5 ] || fail "expected 5 rows, got $rows"
# The last three fields of every row are positive numbers.
awk '{ for (i = NF - 2; i <= NF; i++) if (!($i + 0 > 0)) { print "bad figure in: " $0; bad = 1 } } END { exit bad }' "$tmp/rows.txt" ||
	fail "a figure is missing or not positive"
grep -q "no luks" "$tmp/table.txt" || fail "no 'no luks' row"
grep -q "aes-cbc-essiv:sha256" "$tmp/table.txt" || fail "no CESA-cipher row"

# Five results files, each traceable to what was built and where.
n=$(find "$tmp/res" -name '*.json' | wc -l)
[ "$n" -eq 5 ] || fail "expected 5 results files, got $n"
python3 - "$tmp/res" <<'EOF' || fail "results files do not record what was built"
import os, sys, sbresults
d = sys.argv[1]
want = {"luks512": 512, "luks4096": 4096, "luks4096-cesa": 4096}
seen = set()
for f in sorted(os.listdir(d)):
    r = sbresults.load(os.path.join(d, f))
    assert r["schema"] == "stackbench-results/1", f
    h = r["host"]
    assert h["kernel"] and "sandbox" in h, f
    name = r["stack"]["name"]
    seen.add(name)
    layers = sbresults.layers(r)
    assert layers["md"]["level"] == "raid1", (f, layers["md"])
    assert layers["ext4"]["block_size"] == 4096, f
    if name in want:
        assert layers["luks"]["sector_size"] == want[name], (f, layers["luks"])
        assert "crypto_driver" in layers["luks"], f
    else:
        assert "luks" not in layers, f
    if name == "omv-ext4-lvm":
        assert "lvm" in layers, f
    b = sbresults.suites(r, "bonnie")
    assert b and all(b[0]["figures"][k]["value"] > 0 for k in ("block_output", "rewrite", "block_input")), f
assert seen == {"omv-ext4-lvm", "ext4", "luks512", "luks4096", "luks4096-cesa"}, seen
EOF

# compare turns the files into the same table the run printed.
"$sb" compare "$tmp/res" > "$tmp/compare.txt" || fail "compare exited $?"
diff -u "$tmp/table.txt" "$tmp/compare.txt" || fail "compare's table differs from the run's"

# Charts: the run's SVG, and a PNG from compare.
"$sb" compare --chart "$tmp/c.png" "$tmp/res" > /dev/null || fail "compare --chart png exited $?"
head -c 8 "$tmp/c.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || fail "chart is not a PNG"
grep -q "<svg" "$tmp/run.svg" && tail -c 200 "$tmp/run.svg" | grep -q "</svg>" || fail "chart is not an SVG"

# Nothing left: no state, no md, no dm, no loop on our files, no mounts.
[ -z "$(ls -A "$STACKBENCH_STATE_DIR" 2>/dev/null | grep -v '^mnt$')" ] || fail "state left: $(ls -A "$STACKBENCH_STATE_DIR")"
grep -q "^md" /proc/mdstat && fail "md array left: $(grep ^md /proc/mdstat)"
ls /sys/block | grep -q "^dm-" && fail "dm device left"
left=$(sb_loop_leaks "$tmp"); [ -n "$left" ] && fail "loop device left: $left"
grep -q "$tmp" /proc/self/mountinfo && fail "mount left"

sb_end
