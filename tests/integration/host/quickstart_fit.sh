#!/bin/bash
# A quick start that fits the machine (issue 11, item 3):
#  - `plan` prints the disk space the stack takes and where, the benchmark
#    sizes the machine that runs it gets, and an estimated time;
#  - with a larger throwaway kernel, bonnie's twice-RAM file is capped to
#    what the filesystem holds, and plan says so;
#  - `validate` warns (exit 0) when bench.size fits the devices but not the
#    filesystem on them;
#  - a real run on a stack far smaller than twice RAM: bonnie's automatic
#    size is capped to what fits, the run succeeds, the results carry the
#    note, and the cost line comes before anything is built.
# Needs root (the real run builds a loop device and ext4 on this kernel).
set -u
. "$(dirname "$0")/../lib.sh"
sb_test fit --scratch

# --- plan: disk, filesystem, sizes, time ---------------------------------
out=$(STACKBENCH_UML_MEM=1G "$sb" plan "$src/stacks/luks4096-cesa.yml" 2>&1); rc=$?
[ $rc -eq 0 ] || bad "plan exited $rc: $out"
echo "$out" | grep -q '^  disk: 2 preallocated files of 4 GiB in /var/tmp/stackbench (.* free there); about 8.0 GiB of them fill up$' &&
	ok "plan: disk line" || bad "plan: no disk line: $out"
echo "$out" | grep -q '^  filesystem: about 3\.[0-9] GiB free (estimated)$' && ok "plan: filesystem estimate" ||
	bad "plan: filesystem line: $out"
echo "$out" | grep -q '^  time: about .* to .* (1 repetition, build and teardown' && ok "plan: time line" ||
	bad "plan: time line: $out"
if echo "$out" | grep -q "in the throwaway kernel"; then
	echo "$out" | grep -q '^  bonnie: 2\.0 GiB of files (twice RAM: 1\.0 GiB in the throwaway kernel)$' &&
		ok "plan: bonnie twice the 1G sandbox" || bad "plan: bonnie line with 1G: $out"
	out=$(STACKBENCH_UML_MEM=3G "$sb" plan "$src/stacks/luks4096-cesa.yml" 2>&1)
	echo "$out" | grep -q '^  bonnie: 3\.[0-9] GiB of files (twice RAM would be 6\.0 GiB, more than fits; RAM 3\.0 GiB in the throwaway kernel)$' &&
		ok "plan: 3G sandbox: bonnie capped to what fits" || bad "plan: bonnie line with 3G: $out"
else
	echo "$out" | grep -q '^  bonnie: .* of files (twice RAM' && ok "plan: bonnie sized from this machine's RAM" ||
		bad "plan: bonnie line: $out"
fi
out=$("$sb" plan --set bench.size=100MiB "$src/stacks/ext4.yml" 2>&1)
echo "$out" | grep -q '^  bonnie: 100\.0 MiB of files (bench.size)$' && ok "plan: explicit bench.size" ||
	bad "plan with bench.size: $out"

# --- validate warns when bench.size fits the devices but not the fs ------
"$sb" validate --set bench.size=3900MiB "$src/stacks/ext4.yml" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q "warning: .*ext4.yml: ext4: bench.size 3.8 GiB will not fit: this stack's filesystem will have about 3.[0-9] GiB free" "$tmp/err" &&
	ok "validate: warning, exit 0" || bad "validate bench.size=3900MiB: exit $rc: $(cat "$tmp/err")"
"$sb" validate --set bench.size=1GiB "$src/stacks/ext4.yml" >"$tmp/out" 2>"$tmp/err"
[ ! -s "$tmp/err" ] && ok "validate: no warning when it fits" || bad "validate bench.size=1GiB: $(cat "$tmp/err")"

# --- a real run: twice RAM capped to a 64 MiB loop's filesystem ----------
if [ "$(id -u)" != 0 ]; then echo "SKIP (rest): needs root"; sb_end; fi
"$sb" build-and-test --set devices.loop.dir="$tmp/work" --set bench.suites=[bonnie] --set bench.files=0 \
	--results "$tmp/res" "$src/tests/stacks/plain.yml" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -ne 0 ]; then
	bad "build-and-test exited $rc: $(cat "$tmp/err")"
else
	ok "build-and-test of bonnie on a 64 MiB stack"
	first=$(grep -n 'plain: expect about .* to .*, up to .* written of 1 x 64 MiB sparse files under' "$tmp/err" | cut -d: -f1)
	build=$(grep -n "plain: building" "$tmp/err" | head -1 | cut -d: -f1)
	[ -n "$first" ] && [ -n "$build" ] && [ "$first" -lt "$build" ] && ok "cost line before the build" ||
		bad "cost line: $(cat "$tmp/err")"
	python3 - "$tmp/res" <<'PY' && ok "results: bonnie capped to what fits, with a note" || bad "results: see above"
import sys, sbresults
s = sbresults.suite(sbresults.one(sys.argv[1]), "bonnie")
notes = " | ".join(s["notes"])
assert "bench.size automatic: twice RAM (" in notes and "capped to" in notes, notes
assert s["figures"]["block_output"]["value"] > 0, s["figures"]
print("notes:", notes)
PY
fi
sb_end
