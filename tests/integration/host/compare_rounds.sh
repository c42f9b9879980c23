#!/bin/bash
# compare --rounds LIST: only those repetitions of every results file, each
# row's notes saying which of how many; a list with no round a file has is
# an error naming the file, a malformed list a usage error (exit 2). On the
# committed 5-round Helios4 run (docs/helios4-results/2026-12-03): the
# verdicts docs/helios4.md quotes come from --rounds 1-3. About 1 s.
set -u
. "$(dirname "$0")/../lib.sh"
sb_test compare-rounds --scratch
h4=$src/docs/helios4-results/2026-12-03
[ "$(ls "$h4"/*.json | wc -l)" -eq 5 ] || bad "expected five results files in $h4"

out=$("$sb" -q compare --format json --baseline luks4096 --rounds 1-3 --columns stack,dd.write "$h4" 2>&1) ||
	bad "compare --rounds 1-3 failed: $out"
python3 - "$out" <<'PY' && ok "--rounds 1-3: n=3 per row, noted, paired verdicts" || bad "--rounds 1-3: $out"
import json, sys
t = json.loads(sys.argv[1])
rows = t["rows"]
assert len(rows) == 5, rows
for r in rows:
    assert r["n"] == 3, r
    assert any("only rounds 1-3 of 5 shown" in n for n in r["notes"]), r["notes"]
cesa = [r for r in rows if r["stack"] == "luks4096-cesa"][0]
assert cesa["dd.write_verdict"].startswith("no detectable difference"), cesa
assert "paired" in cesa["dd.write_method"], cesa
PY
out=$("$sb" -q compare --format json --rounds 2,4 --columns stack,dd.write "$h4" 2>&1) &&
	python3 -c 'import json,sys; t=json.loads(sys.argv[1]); assert all(r["n"] == 2 for r in t["rows"])' "$out" &&
	ok "--rounds 2,4: n=2" || bad "--rounds 2,4: $out"
# without --rounds: all five
out=$("$sb" -q compare --format json --columns stack,dd.write "$h4" 2>&1) &&
	python3 -c 'import json,sys; t=json.loads(sys.argv[1]); assert all(r["n"] == 5 for r in t["rows"])' "$out" &&
	ok "no --rounds: n=5" || bad "no --rounds: $out"
for l in 0 3-1 x 1- 64 1,,2 ''; do
	out=$("$sb" compare --rounds "$l" "$h4" 2>&1)
	[ $? -eq 2 ] && grep -q -- "--rounds" <<<"$out" && ok "--rounds '$l' refused" || bad "--rounds '$l': $out"
done
out=$("$sb" compare --rounds 9 "$h4" 2>&1)
[ $? -eq 2 ] && grep -q "has no round in --rounds 9 (its rounds: 1-5)" <<<"$out" &&
	ok "--rounds 9: no such round, named" || bad "--rounds 9: $out"
sb_end
