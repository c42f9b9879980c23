#!/bin/bash
# build-and-test --repeat 2 --interleave on this kernel (loop -> ext4 needs
# neither md nor dm), two stacks:
#  1. the rounds run in order (a 1, b 1, a 2, b 2), each stack rebuilt and
#     torn down in each, and each results file holds both repetitions,
#     "run_order" {interleaved, rounds 2}, and the first build's read-back;
#     the cost said first counts a build per round; nothing is left;
#  2. SIGINT during stack b's first round: exit 130; b's results carry the
#     interruption, a's first round is still written, with "interrupted
#     between rounds" among its errors; nothing is left;
#  3. --interleave with an export stack is refused (exit 2) before
#     anything is built.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test run_interleave --root --scratch
for n in a b; do
	cat > "$tmp/$n.yml" <<EOF
name: sb-il-$n
devices:
  loop: {count: 1, size: 160MiB}
fs: {type: ext4}
bench: {suites: [dd], size: 16MiB, per_layer: false}
EOF
done
run=("$sb" --no-sandbox build-and-test --repeat 2 --interleave --set "devices.loop.dir=$tmp/loops")

# 1. the whole run
if "${run[@]}" --results "$tmp/res" "$tmp/a.yml" "$tmp/b.yml" > "$tmp/out" 2> "$tmp/log"; then
	ok "run: exit 0"
else
	bad "run: exit $?: $(tail -3 "$tmp/log")"
fi
order=$(grep -o '\[[12]/2\] sb-il-[ab] (round [12] of 2)' "$tmp/log" | tr '\n' ';')
want='[1/2] sb-il-a (round 1 of 2);[2/2] sb-il-b (round 1 of 2);[1/2] sb-il-a (round 2 of 2);[2/2] sb-il-b (round 2 of 2);'
[ "$order" = "$want" ] && ok "run: rounds in order" || bad "run: order '$order'"
[ "$(grep -c 'building .* (round [12] of 2)' "$tmp/log")" = 4 ] && ok "run: 4 builds" ||
	bad "run: builds: $(grep -c 'building' "$tmp/log")"
[ "$(grep -c 'tearing down' "$tmp/log")" = 4 ] && ok "run: 4 teardowns" || bad "run: teardowns"
python3 - "$tmp"/res/sb-il-*.json <<'PY' && ok "run: results hold both rounds" || bad "run: results (above)"
import sys, sbresults
bad = []
if len(sys.argv) != 3: bad.append("%d results files" % (len(sys.argv) - 1))
for p in sys.argv[1:]:
    r = sbresults.load(p)
    reps = sorted(s.get("repetition") for s in sbresults.suites(r, "dd"))
    if reps != [1, 2]: bad.append("%s: dd repetitions %r" % (p, reps))
    o = r.get("run_order") or {}
    if o.get("interleaved") is not True or o.get("rounds") != 2: bad.append("%s: run_order %r" % (p, o))
    if not r.get("stack", {}).get("built"): bad.append("%s: no stack.built" % p)
    if r.get("errors"): bad.append("%s: errors %r" % (p, r["errors"]))
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
grep -q "^1\.\|sb-il-a" "$tmp/out" && ok "run: the table" || bad "run: no table: $(head -3 "$tmp/out")"
sb_nothing_left run "$tmp/loops"

# 2. SIGINT while stack b measures in round 1
"${run[@]}" --results "$tmp/res2" "$tmp/a.yml" "$tmp/b.yml" > "$tmp/int.out" 2> "$tmp/int.log" &
sb_bg_pid=$!
if sb_wait_until "$sb_bg_pid" 300 grep -q "sb-il-b: suite dd (repetition 1 of 2)" "$tmp/int.log"; then
	sb_signal_wait INT "$sb_bg_pid" 120; rc=$?
	[ "$sb_late" = 0 ] || bad "interrupt: still running 120 s after SIGINT"
	[ $rc -eq 130 ] && ok "interrupt: exit 130" || bad "interrupt: exit $rc: $(tail -3 "$tmp/int.log")"
	grep -q "sb-il-a (round 2 of 2)" "$tmp/int.log" && bad "interrupt: round 2 started after the stop"
	python3 - "$tmp"/res2/sb-il-a-*.json "$tmp"/res2/sb-il-b-*.json <<'PY' &&
import sys, sbresults
a, b = (sbresults.load(p) for p in sys.argv[1:3])
ra = [s.get("repetition") for s in a.get("suites", [])]
ok = ra == [1] and any("between rounds" in e for e in a.get("errors", [])) and \
     any("interrupted" in e for e in b.get("errors", []))
print("a: repetitions %r, errors %r; b: errors %r" % (ra, a.get("errors"), b.get("errors")))
sys.exit(0 if ok else 1)
PY
		ok "interrupt: both results written, with the interruption" || bad "interrupt: results (above)"
else
	bad "interrupt: stack b's suite never started: $(tail -3 "$tmp/int.log")"; sb_reap 9 "$sb_bg_pid"
fi
sb_nothing_left interrupt "$tmp/loops"

# 3. refused with export, before anything is built
sed -e 's/^name: sb-il-a/name: sb-il-x/' "$tmp/a.yml" > "$tmp/x.yml"
printf 'export:\n  protocol: [nfs]\n' >> "$tmp/x.yml"
"${run[@]}" --results "$tmp/res3" "$tmp/x.yml" > /dev/null 2> "$tmp/x.err"; rc=$?
[ $rc -eq 2 ] && ok "export: exit 2" || bad "export: exit $rc: $(tail -3 "$tmp/x.err")"
grep -q -- "--interleave: stack sb-il-x has export" "$tmp/x.err" && ok "export: says why" ||
	bad "export: message: $(tail -3 "$tmp/x.err")"
grep -q "building" "$tmp/x.err" && bad "export: something was built"
sb_nothing_left export "$tmp/loops"

sb_end
