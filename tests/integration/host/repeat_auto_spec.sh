#!/bin/bash
# bench.repeat: auto in a stack file (no --repeat flag) on this kernel (loop
# -> ext4 needs neither md nor dm); 34 s on a loaded machine:
#  1. stacks whose auto settings differ are refused before anything is built
#     (exit 2, naming the flag that decides);
#  2. one stack, bench.repeat: auto with min_repeat = max_repeat = 2: the
#     estimate said first is auto's range (2 to 2 rounds), two interleaved
#     rounds run, and run_order records repeat auto, its settings, why it
#     stopped and seconds_to_stop (the time to the decision); nothing left.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test repeat_auto_spec --root --scratch
mk() {   # name, extra bench keys
	cat > "$tmp/$1.yml" <<EOF
name: sb-ra-$1
devices:
  loop: {count: 1, size: 160MiB}
fs: {type: ext4}
bench: {suites: [dd], size: 16MiB, per_layer: false, repeat: auto, min_repeat: 2, max_repeat: 2$2}
EOF
}
mk a ""
mk b ", precision: 20%"
run=("$sb" --no-sandbox build-and-test --set "devices.loop.dir=$tmp/loops")

# 1. settings that disagree
"${run[@]}" --results "$tmp/res0" "$tmp/a.yml" "$tmp/b.yml" > "$tmp/out0" 2> "$tmp/log0"; rc=$?
[ $rc -eq 2 ] && grep -q "ask for a different bench.precision (5 and 20).*give --precision" "$tmp/log0" &&
	! grep -q "building" "$tmp/log0" && ok "disagree: refused before building" ||
	bad "disagree: exit $rc: $(tail -2 "$tmp/log0")"

# 2. the run
if "${run[@]}" --results "$tmp/res" "$tmp/a.yml" > "$tmp/out" 2> "$tmp/log"; then
	ok "run: exit 0"
else
	bad "run: exit $?: $(tail -3 "$tmp/log")"
fi
grep -q -- "--repeat auto: 2 to 2 rounds" "$tmp/log" && ok "run: the estimate is auto's" ||
	bad "run: no auto estimate: $(grep expect "$tmp/log")"
[ "$(grep -c '(round [12] of 2)' "$tmp/log")" -ge 2 ] && ok "run: 2 rounds" || bad "run: rounds"
python3 - "$tmp"/res/sb-ra-a-*.json <<'PY' && ok "run: run_order" || bad "run: run_order (above)"
import sys, sbresults
r = sbresults.load(sys.argv[1])
o = r.get("run_order") or {}
bad = []
if o.get("repeat") != "auto" or o.get("rounds") != 2 or o.get("min_repeat") != 2: bad.append("run_order %r" % o)
if o.get("stopped") not in ("precision", "max_repeat"): bad.append("stopped %r" % o.get("stopped"))
if not (isinstance(o.get("seconds_to_stop"), (int, float)) and 0 < o["seconds_to_stop"] < 3600):
    bad.append("seconds_to_stop %r" % o.get("seconds_to_stop"))
if sbresults.get(r, "stack.requested.bench").get("repeat") != "auto": bad.append("requested bench.repeat")
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
sb_nothing_left run "$tmp/loops"
sb_end
