#!/bin/bash
# A RAID member failing mid-benchmark (faults.fail): RAID1 and RAID10 near2,
# md marks the member faulty `after` into the quick suite. The run exits 0,
# the results record degraded and which member (suite stack_state_after and
# its note, top-level faults.fail), the verify read of data written before
# the failure passes, and teardown leaves nothing.
#   scripts/uml-run.sh -- tests/integration/uml/fault_degraded.sh
set -u
. "$(dirname "$0")/fault_lib.sh"

# deg_case NAME LEVEL COUNT MEMBER
deg_case() {
	local name=$1 level=$2 count=$3 member=$4 y
	y=$(mktemp -d /tmp/sb-fault-XXXXXX)/$name.yml
	cat > "$y" <<YML
name: $name
devices:
  loop: {count: $count, size: 64MiB, dir: $work}
raid: {level: $level}
fs: {block_size: 4096}
bench: {suites: [quick], size: 16MiB, runtime: 2s}
faults:
  fail: {member: $member, after: 1s}
YML
	run_stack "$y"
	rm -rf "$(dirname "$y")"
	if [ "$RC" = 0 ]; then ok "$name: build-and-test with a member failed mid-benchmark exits 0"; else bad "$name: exit $RC"; fi
	judge_results "$name: results record degraded=1, the failed member, a note, and a clean verify" \
		"$name: results incomplete" "$member" <<'PY' || return
import json, sys
r = json.load(open(sys.argv[1])); member = int(sys.argv[2])
f = r.get('faults', {}); fail = f.get('fail', {}); ver = f.get('verify', {})
errs = []
if not fail.get('fired'): errs.append('faults.fail.fired is not true: %s' % fail)
# `after` is 1 s: the timer must not fire early (nor absurdly late)
if not (1.0 <= (fail.get('at_s') or 0) < 30): errs.append('failed at %s s, after is 1 s' % fail.get('at_s'))
if fail.get('member') != member: errs.append('faults.fail.member %s' % fail.get('member'))
if not ver.get('ok') or ver.get('errors') != 0 or not ver.get('verified_blocks'):
    errs.append('verify: %s' % ver)
suites = r.get('suites', [])
last = suites[-1].get('stack_state_after', {}).get('md', {}) if suites else {}
if last.get('degraded') != 1: errs.append('last suite md degraded = %s' % last.get('degraded'))
failed = last.get('failed_members') or []
dev = fail.get('device', '')
import os
kname = os.path.basename(os.path.realpath(dev)) if dev else ''
if len(failed) != 1: errs.append('failed_members %s' % failed)
notes = [n for s in suites for n in s.get('notes', []) if 'degraded during this suite' in n]
if len(notes) != 1: errs.append('notes: %s' % notes)
elif failed and failed[0] not in notes[0]: errs.append('note %r does not name %s' % (notes[0], failed[0]))
for e in errs: print('    ' + e)
print('    failed_members=%s note=%r verify=%s' % (failed, notes[0] if notes else None, ver))
sys.exit(1 if errs else 0)
PY
	cmp=$("$SB" compare --columns stack,degraded "$RES" 2>&1)
	echo "$cmp" | sed 's/^/    | /'
	if grep -Eq "^$name +(loop|dm-)[0-9]+ at [0-9.]+ s" <<<"$cmp"; then ok "$name: compare --columns degraded shows the failed member"; else bad "$name: compare --columns degraded"; fi
	assert_clean "$name teardown"
}

deg_case fdeg-r1 1 2 1
deg_case fdeg-r10 10 4 2
finished=1
