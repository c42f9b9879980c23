#!/bin/bash
# -vv stamps every message with the seconds since the process started
# ("stackbench: [  0.012] ..."), the profile of where a build's time goes
# (issue 13, item 5); below -vv messages carry no stamp. Needs root (builds
# tests/stacks/plain.yml on a loop device).
set -u
. "$(dirname "$0")/../lib.sh"
sb_test log-elapsed --root --scratch
stamp='^stackbench: (debug: )?\[ *[0-9]+\.[0-9]{3}\] '
"$sb" -vv build "$SB_ROOT/tests/stacks/plain.yml" --set "devices.loop.dir=$tmp/loops" >/dev/null 2>"$tmp/vv" ||
	{ echo "FAIL: build -vv: $(tail -3 "$tmp/vv")"; exit 1; }
"$sb" -v teardown plain >/dev/null 2>"$tmp/v" || { echo "FAIL: teardown -v: $(tail -3 "$tmp/v")"; exit 1; }
if grep -qE "$stamp" "$tmp/vv" && grep -qE "${stamp}debug: |^stackbench: debug: \[" "$tmp/vv"; then
	ok "-vv lines carry the elapsed time: $(grep -E "$stamp" "$tmp/vv" | tail -1 | cut -c1-70)"
else
	bad "no '[  s.mmm]' stamp on -vv output: $(head -3 "$tmp/vv")"
fi
if ! grep -q '^stackbench: ' "$tmp/v"; then
	bad "teardown -v said nothing"
elif grep -qE "$stamp" "$tmp/v"; then
	bad "-v lines carry a stamp: $(head -2 "$tmp/v")"
else
	ok "-v lines carry no stamp"
fi
sb_end
