#!/bin/bash
# Every README example is a test (issue 11, item 2): each `stackbench ...`
# command of README.md - the example column of the commands table (cells
# with two commands, "A / B", give both) and every line of its code blocks,
# including commands in their comments - is run in README order, on a
# kernel with md and device-mapper (here, or in the throwaway kernel this
# script boots), and any non-zero exit fails the test. The README stays
# true by construction.
#
# Substitution rules, so the examples run small and touch only this test's
# files (the commands are otherwise run exactly as written):
#   - `stackbench` is this build's binary; commands run in a scratch
#     directory whose `stacks` is a link to the repository's stacks/, so
#     `results/` is written there;
#   - build, build-and-test and `bench STACK.yml` get, appended (options may
#     come after the files):
#       --set devices.loop.size=256MiB --set bench.size=16MiB
#       --set bench.suites=[quick] --set devices.loop.dir=SCRATCH/loops
#   - `bench --target DIR` gets --set bench.size=16MiB;
#   - `bonnie` gets -s 32 -r 16 in place of its -s SIZE (a 32 MiB file,
#     judged against 16 MiB of RAM: bonnie++'s twice-RAM rule still holds);
#   - /mnt/x (the README's example mount point) is a scratch ext4 on a
#     128 MiB loop device, mounted by this test;
#   - /dev/loop0 (the README's example device) is a loop device over a
#     64 MiB scratch file attached by this test.
#   - `stackbench fleet` and the other examples of "## Many machines" need
#     machines reachable over ssh and their results: they are listed and
#     skipped here, and run by tests/integration/host/fleet.sh (three
#     private sshds, real Ansible).
# Fewer than 10 extracted commands fails too (the extraction broke).
set -u
src=$(cd "$(dirname "$0")/../../.." && pwd)
. "$src/tests/integration/lib.sh"
sb_uml_scratch_test readme "$0" "$@"
loopdev=
mntdev=
sb_cleanup_hook() {
	mountpoint -q "$tmp/mnt-x" && umount "$tmp/mnt-x"
	[ -n "$loopdev" ] && sb_loop_detach "$loopdev"
	[ -n "$mntdev" ] && sb_loop_detach "$mntdev"
}

# One command per line, in README order.
extract() {
	python3 - "$src/README.md" <<'PY'
import re, sys
code = False
fleet = False   # inside "## Many machines": examples that need other machines
for line in open(sys.argv[1], encoding="utf-8").read().splitlines():
    if line.startswith("## "):
        fleet = line.strip() == "## Many machines"
    if line.startswith("```"):
        code = not code
        continue
    if code:
        m = re.search(r"(?:^|\s)(stackbench\s+\S.*?)\s*(?:#.*)?$", line)
        if m:
            print(("SKIP " if fleet else "") + m.group(1))
    elif line.startswith("| `"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3:
            for span in re.findall(r"`(stackbench [^`]+)`", cells[-1]):
                print(("SKIP " if span.startswith("stackbench fleet ") else "") + span)
PY
}

mkdir -p "$tmp/work" "$tmp/mnt-x" "$tmp/loops"
ln -s "$src/stacks" "$tmp/work/stacks"
truncate -s 64M "$tmp/job.img"
loopdev=$(losetup -f --show "$tmp/job.img") || { echo "FAIL: cannot attach a loop device"; exit 1; }
truncate -s 128M "$tmp/mnt.img"
mntdev=$(losetup -f --show "$tmp/mnt.img") || { echo "FAIL: cannot attach a loop device"; exit 1; }
mkfs.ext4 -q -F "$mntdev" && mount "$mntdev" "$tmp/mnt-x" || { echo "FAIL: cannot make /mnt/x's stand-in"; exit 1; }
small="--set devices.loop.size=256MiB --set bench.size=16MiB --set bench.suites=[quick] --set devices.loop.dir=$tmp/loops"

mapfile -t cmds < <(extract)
echo "${#cmds[@]} commands in README.md"
[ "${#cmds[@]}" -ge 10 ] || { echo "FAIL: only ${#cmds[@]} commands extracted from README.md"; exit 1; }
cd "$tmp/work" || exit 1
t0=$(date +%s)
for c in "${cmds[@]}"; do
	if [[ "$c" == "SKIP "* ]]; then
		echo "--- ${c#SKIP }"
		echo "    skipped: it needs machines reachable over ssh; host/fleet.sh runs fleet --each, --spread and compare --pivot host against three private sshds"
		continue
	fi
	run=${c/#stackbench/\"\$sb\" --no-progress}
	run=${run//\/mnt\/x/$tmp/mnt-x}
	run=${run//\/dev\/loop0/$loopdev}
	read -r _ sub rest <<< "$c"
	case "$sub" in
	build|build-and-test) run="$run $small" ;;
	bench) case "$rest" in *--target*) run="$run --set bench.size=16MiB" ;; *) run="$run $small" ;; esac ;;
	bonnie) run=$(sed -E 's/ -s [^ ]+/ -s 32 -r 16/' <<< "$run") ;;
	esac
	echo "--- $c"
	echo "    as: $run"
	s=$(date +%s)
	eval "$run" > "$tmp/out" 2> "$tmp/err"; rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL: '$c' exited $rc:"; sed 's/^/    /' "$tmp/err" | tail -15
		fails=$((fails + 1))
	else
		echo "ok ($(( $(date +%s) - s )) s): $(head -c 300 "$tmp/out" | head -3)"
	fi
done
echo "all README examples: $(( $(date +%s) - t0 )) s"
exit $((fails > 0))
