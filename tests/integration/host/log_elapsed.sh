#!/bin/bash
# -vv stamps every message with the seconds since the process started
# ("stackbench: [  0.012] ..."), the profile of where a build's time goes
# (issue 13, item 5); below -vv messages carry no stamp. Needs root (builds
# tests/stacks/plain.yml on a loop device).
set -u
. "$(dirname "$0")/../lib.sh"
sb_root_test log-elapsed
fails=0
stamp='^stackbench: (debug: )?\[ *[0-9]+\.[0-9]{3}\] '
"$sb" -vv build "$SB_ROOT/tests/stacks/plain.yml" --set "devices.loop.dir=$tmp/loops" >/dev/null 2>"$tmp/vv" ||
	{ echo "FAIL: build -vv: $(tail -3 "$tmp/vv")"; exit 1; }
"$sb" -v teardown plain >/dev/null 2>"$tmp/v" || { echo "FAIL: teardown -v: $(tail -3 "$tmp/v")"; exit 1; }
if grep -qE "$stamp" "$tmp/vv" && grep -qE "${stamp}debug: |^stackbench: debug: \[" "$tmp/vv"; then
	echo "ok: -vv lines carry the elapsed time: $(grep -E "$stamp" "$tmp/vv" | tail -1 | cut -c1-70)"
else
	echo "FAIL: no '[  s.mmm]' stamp on -vv output: $(head -3 "$tmp/vv")"; fails=1
fi
if ! grep -q '^stackbench: ' "$tmp/v"; then
	echo "FAIL: teardown -v said nothing"; fails=1
elif grep -qE "$stamp" "$tmp/v"; then
	echo "FAIL: -v lines carry a stamp: $(head -2 "$tmp/v")"; fails=1
else
	echo "ok: -v lines carry no stamp"
fi
exit $fails
