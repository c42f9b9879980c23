#!/bin/bash
# The stack's life as separate commands, on a kernel with md and
# device-mapper (issue 3's "done when"): `build stacks/luks4096-cesa.yml`,
# then `status` lists it with its layers and device nodes, then `bench
# STACK` runs a suite on the stack left up and writes a results file that
# records the stack as read back, then `teardown luks4096-cesa` removes it
# and nothing is left. Outside the throwaway kernel it boots one and runs
# itself inside.
set -u
src=$(cd "$(dirname "$0")/../../.." && pwd)
. "$src/tests/integration/lib.sh"
sb_test cli --uml --scratch -- "$@"

stack=$src/stacks/luks4096-cesa.yml
sets=(--set "devices.loop.dir=$tmp/work" --set devices.loop.size=96MiB)

"$sb" --no-progress build "${sets[@]}" "$stack" > "$tmp/build.out" 2> "$tmp/build.err" ||
	{ fail "build exited $?"; cat "$tmp/build.err"; }
grep -q "built luks4096-cesa" "$tmp/build.out" || fail "build did not say what it built"

"$sb" status > "$tmp/status.out" 2>&1 || fail "status exited $?"
cat "$tmp/status.out"
grep -q "luks4096-cesa" "$tmp/status.out" || fail "status does not list the stack"
for want in /dev/loop /dev/md/sb-luks4096-cesa /dev/mapper/sb-luks4096-cesa; do
	grep -q "$want" "$tmp/status.out" || fail "status does not show $want"
done

# A second build of the same stack is refused while it is up (exit 4).
"$sb" build "${sets[@]}" "$stack" > /dev/null 2>&1
rc=$?
[ $rc -eq 4 ] || fail "a second build exited $rc, not 4"

# bench STACK: the suite runs on the stack left up; the results file records
# the stack as read back from the kernel.
"$sb" --no-progress bench "${sets[@]}" --set 'bench.suites=[quick]' --set bench.size=16MiB \
	--results "$tmp/res" "$stack" > "$tmp/bench.out" 2> "$tmp/bench.err" ||
	{ fail "bench STACK exited $?"; tail -5 "$tmp/bench.err"; }
cat "$tmp/bench.out"
sb_results_py "$tmp/res" <<'EOF' || fail "bench STACK's results file does not record the stack"
assert layers["luks"]["cipher"] == "aes-cbc-essiv:sha256", layers["luks"]
assert layers["luks"]["sector_size"] == 4096, layers["luks"]
assert layers["md"]["level"] == "raid1", layers["md"]
assert sbresults.figure(r, "quick", "seq_write") > 0, r["suites"]
EOF

# The stack is still up after bench; teardown by name removes it.
"$sb" teardown luks4096-cesa > "$tmp/td.out" 2>&1 || { fail "teardown exited $?"; cat "$tmp/td.out"; }
"$sb" status 2>&1 | grep -q "luks4096-cesa" && fail "status still lists the stack"
grep -q "^md" /proc/mdstat && fail "md array left: $(grep ^md /proc/mdstat)"
ls /sys/block | grep -q "^dm-" && fail "dm device left"
[ -n "$(sb_loop_leaks "$tmp")" ] && fail "loop device left"
grep -q "$tmp" /proc/self/mountinfo && fail "mount left"
[ -z "$(ls -A "$tmp/work" 2>/dev/null)" ] || fail "backing files left: $(ls -A "$tmp/work")"

sb_end
