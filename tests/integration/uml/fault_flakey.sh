#!/bin/bash
# An unreliable member (faults.flakey): RAID1 on 2 loop devices, dm-flakey
# over member 0, up 8 s then down 4 s (every I/O fails). A write in the down
# interval makes md fail the member on its own; the run completes, the
# results record the array degraded with that member failed (suite
# stack_state_after and its note), the verify read of data written at the
# start passes, and teardown leaves nothing.
#   scripts/uml-run.sh -- tests/integration/uml/fault_flakey.sh
set -u
. "$(dirname "$0")/fault_lib.sh"

y=$(dirname "$0")/fault-stacks/fflakey-r1.yml
run_stack "$y"
if [ "$RC" = 0 ]; then ok "build-and-test with a flakey member exits 0"; else bad "exit $RC"; fi
judge_results "md failed the flakey member on its own; results record it; verify passes" \
	"results" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
built = {b.get('layer'): b for b in r['stack']['built']}
flakey = [m for m in built['fault']['members'] if m.get('fault') == 'flakey']
errs = []
if len(flakey) != 1 or flakey[0].get('target') != 'flakey': errs.append('fault layer: %s' % built['fault'])
kname = flakey[0].get('kernel_name') if flakey else None
md = r['suites'][-1].get('stack_state_after', {}).get('md', {})
print('    md after the last suite: degraded=%s failed=%s state=%s' % (md.get('degraded'), md.get('failed_members'), md.get('array_state')))
if md.get('degraded') != 1: errs.append('md not degraded')
if md.get('failed_members') != [kname]: errs.append('failed_members %s, want [%s]' % (md.get('failed_members'), kname))
notes = [n for s in r['suites'] for n in s.get('notes', []) if 'degraded during this suite' in n]
print('    notes: %s' % notes)
if len(notes) != 1 or kname not in notes[0]: errs.append('notes %s' % notes)
ver = r.get('faults', {}).get('verify', {})
print('    verify: %s' % ver)
if not ver.get('ok') or ver.get('errors') != 0: errs.append('verify %s' % ver)
if 'fail' in r.get('faults', {}): errs.append('faults.fail recorded without faults.fail')
for e in errs: print('    ' + e)
sys.exit(1 if errs else 0)
PY
assert_clean "fflakey-r1 teardown"
finished=1
