#!/bin/bash
# A slow member (faults.delay): RAID10 near2 on 4 loop devices, dm-delay of
# 20 ms over member 1. The run completes, and the per-device statistics of
# the results (suite disk_util) show that member's dm device with the
# highest await and utilisation of the four md members: the bottleneck.
#   scripts/uml-run.sh -- tests/integration/uml/fault_slow_member.sh
set -u
. "$(dirname "$0")/fault_lib.sh"

y=$(dirname "$0")/fault-stacks/fslow-r10.yml
plan=$("$SB" plan "$y")
if grep -q "fault: dm create /dev/mapper/sb-fslow-r10-fault-1 over member 1, table \"0 SECTORS delay DEV1 0 20\"" <<<"$plan" &&
   grep -q "fault: udev settle, dm remove sb-fslow-r10-fault-1" <<<"$plan"; then
	ok "plan lists the dm-delay build and teardown steps"
else
	bad "plan lacks the fault steps:"; echo "$plan"
fi
run_stack "$y"
if [ "$RC" = 0 ]; then ok "build-and-test with a 20 ms member exits 0"; else bad "exit $RC"; fi
judge_results "disk_util shows the delayed member as the bottleneck (highest await and util)" \
	"disk_util does not single out the slow member" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
built = {b.get('layer'): b for b in r.get('stack', {}).get('built', [])} if isinstance(r.get('stack', {}).get('built'), list) else {}
fl = built.get('fault')
errs = []
if not fl: errs.append('no built fault layer in results: %s' % list(built))
mem = fl['members'] if fl else []
slow = [m for m in mem if m.get('fault') == 'delay']
if len(slow) != 1 or slow[0].get('target') != 'delay' or not slow[0].get('table', '').endswith(' 0 20'):
    errs.append('fault layer members: %s' % mem)
import os
names = [m.get('kernel_name') for m in mem]
slow_name = slow[0].get('kernel_name') if slow else None
for s in r.get('suites', []):
    du = {d['name']: d for d in s.get('disk_util', [])}
    missing = [n for n in names if n not in du]
    if missing:
        errs.append('disk_util lacks %s (has %s)' % (missing, list(du))); continue
    aw = {n: max(du[n].get('r_await_ms') or 0, du[n].get('w_await_ms') or 0) for n in names}
    ut = {n: du[n].get('util_pct') or 0 for n in names}
    print('    await ms: %s' % {n: round(v, 2) for n, v in aw.items()})
    print('    util %%:   %s' % {n: round(v, 1) for n, v in ut.items()})
    if max(aw, key=aw.get) != slow_name: errs.append('highest await is %s, not the slow member %s' % (max(aw, key=aw.get), slow_name))
    if max(ut, key=ut.get) != slow_name: errs.append('highest util is %s, not the slow member %s' % (max(ut, key=ut.get), slow_name))
    if aw[slow_name] < 15: errs.append('slow member await %.1f ms < 15 ms' % aw[slow_name])
for e in errs: print('    ' + e)
sys.exit(1 if errs else 0)
PY
assert_clean "fslow-r10 teardown"
finished=1
