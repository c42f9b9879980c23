#!/bin/bash
# raid.sync: wait on 3 × 64 MiB RAID5: the build waits for md's initial
# sync and samples its speed; the results' built md layer carries an
# `initial_sync` object (samples [t, MB/s], duration, average, member bytes) and, with
# raid.estimate_member_size: 4TB, the full-size estimate and its line.
# md's speed cap (speed_limit_max) does not hold a 64 MiB recovery back
# (it finished in under 0.5 s at a 20000 KiB/s cap, measured here), so
# member 2 — the one mdadm's RAID5 create recovers onto — sits behind
# dm-delay (faults.delay, 20 ms a write): the sync lasts seconds and has
# samples.
#   scripts/uml-run.sh -- tests/integration/uml/md_sync_wait.sh
set -u
. "$(dirname "$0")/fault_lib.sh"

y=$(mktemp -d /tmp/sb-sync-XXXXXX)/syncwait.yml
cat > "$y" <<YML
name: syncwait
devices:
  loop: {count: 3, size: 64MiB, dir: $work}
raid: {level: 5, sync: wait, estimate_member_size: 4TB}
fs: {block_size: 4096}
bench: {suites: [quick], size: 8MiB, runtime: 1s}
faults:
  delay: {member: 2, latency: 20ms}
YML
run_stack "$y"
rm -rf "$(dirname "$y")"
if [ "$RC" = 0 ]; then ok "RAID5 sync: wait: build-and-test exits 0"; else bad "RAID5 sync: wait: exit $RC"; fi
line=$(grep -o 'initial sync of 3 × 4 TB RAID5 at the measured [0-9.]* MB/s: ~[0-9.]* h.*' <<<"$OUT")
if [ -n "$line" ]; then ok "estimate line printed: $line"; else bad "no 'initial sync of 3 × 4 TB RAID5 at the measured X MB/s: ~H h' line"; fi
if [ -n "$RES" ]; then
	python3 - "$RES" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
found = []
def walk(o):
    if isinstance(o, dict):
        if isinstance(o.get('initial_sync'), dict):
            found.append(dict(o['initial_sync'], mode=o.get('sync')))
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(r)
if not found: sys.exit('no md sync object with samples in the results')
s = found[0]; errs = []
cap = 1000.0   # MB/s: a KiB/s figure taken for MB/s, or bytes for KiB, would show here
smp = s.get('samples', [])
if s.get('mode') != 'wait': errs.append('mode %s' % s.get('mode'))
if s.get('action') not in ('recover', 'resync'): errs.append('action %s' % s.get('action'))
if len(smp) < 2: errs.append('%d samples: %s' % (len(smp), smp))
if any(len(p) != 2 for p in smp): errs.append('samples are not [t, MB/s]: %s' % smp[:3])
if [p[0] for p in smp] != sorted(p[0] for p in smp): errs.append('sample times not increasing')
if not any(p[1] > 0 for p in smp) or any(p[1] > cap for p in smp): errs.append('sample speeds %s (cap %.2f MB/s)' % ([p[1] for p in smp], cap))
d, avg, mb = s.get('duration_s', 0), s.get('average_mbps', 0), s.get('member_bytes', 0)
if not (0.5 < d < 120): errs.append('duration %s s for 64 MiB behind a 20 ms delay' % d)
if not (60 << 20) <= mb <= (64 << 20): errs.append('member_bytes %s' % mb)
if not (0 < avg <= cap) or abs(avg - mb / d / 1e6) > 0.01 * avg: errs.append('average %s MB/s vs %s B / %s s' % (avg, mb, d))
e = s.get('estimate') or {}
h = 4e12 / (avg * 1e6) / 3600 if avg else 0
if e.get('member_bytes') != 4 * 10**12: errs.append('estimate member_bytes %s' % e.get('member_bytes'))
if not h or abs(e.get('initial_sync_h', 0) - h) > 0.01 * h: errs.append('initial_sync_h %s, want %.2f' % (e.get('initial_sync_h'), h))
if e.get('rebuild_measured') is not False: errs.append('rebuild_measured %s' % e.get('rebuild_measured'))
if 'initial sync of 3 × 4 TB RAID5' not in e.get('text', ''): errs.append('text %r' % e.get('text'))
print('sync: %d samples, %.1f s, %.2f MB/s, 4 TB estimate %.1f h' % (len(smp), d, avg, h))
if errs: sys.exit('; '.join(errs))
PY
	if [ $? = 0 ]; then ok "results: sync samples, duration, average and the 4 TB estimate"; else bad "results: sync object wrong"; fi
else
	bad "no results file"
fi
assert_clean "RAID5 sync: wait"
finished=1
