#!/bin/bash
# A results schema that is true (issue 11, item 5): docs/results-schema.json
# accepts the results files stackbench writes (a fresh `bench --target`
# run's, and the measured files in docs/helios4-results) and rejects
# broken ones (the checker can fail); docs/results-schema.md's key tables
# are the generator's output for the schema as it is; the copy hook the
# harness uses to check every test's results (STACKBENCH_TEST_RESULTS_COPY)
# receives what was written.
set -u
. "$(dirname "$0")/../lib.sh"
sb_test schema --scratch
check=$src/tests/tools/check_results.py
python3 -c 'import jsonschema' 2>/dev/null || sb_skip "python3-jsonschema not installed"

out=$("$check" "$src/docs/helios4-results" 2>&1) && ok "docs/helios4-results: $out" || bad "helios4 files: $out"
mkdir -p "$tmp/copy" "$tmp/target"
STACKBENCH_TEST_RESULTS_COPY=$tmp/copy "$sb" -q bench --suite quick --target "$tmp/target" --set bench.size=4MiB \
	--set bench.runtime=200ms --results "$tmp/res" > /dev/null 2> "$tmp/err" || bad "bench: $(cat "$tmp/err")"
f=$(ls "$tmp"/res/*.json 2>/dev/null | head -1)
[ -n "$f" ] && out=$("$check" "$f" 2>&1) && ok "a fresh bench --target results file: $out" || bad "fresh file: $out"
[ "$(ls "$tmp/copy" | wc -l)" = 1 ] && cmp -s "$f" "$tmp"/copy/*.json && ok "the test copy is the file written" ||
	bad "copy hook: $(ls "$tmp/copy")"
python3 - "$f" "$tmp/broken.json" <<'PY'
import json, sys, sbresults
r = sbresults.load(sys.argv[1])
r["suites"][0]["figures"]["seq_write"]["value"] = "fast"
del r["host"]["kernel"]
json.dump(r, open(sys.argv[2], "w"))
PY
out=$("$check" "$tmp/broken.json" 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "figures/seq_write/value: 'fast' is not of type 'number'" <<< "$out" &&
	grep -q "'kernel' is a required property" <<< "$out" && ok "a broken file is rejected, naming what" ||
	bad "broken file: rc $rc: $out"
"$src/scripts/results-schema-doc.py" --check && ok "docs/results-schema.md tables are generated from the schema" ||
	bad "docs/results-schema.md out of date"
out=$(sb_results check "$tmp/broken.json" 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "figures/seq_write/value: 'fast' is not of type 'number'" <<< "$out" &&
	ok "sbresults.py check: the same check" || bad "sbresults.py check: rc $rc: $out"
out=$(sb_results figure "$f" quick seq_write) && [ "$out" = "$(sb_results get "$f" 'suites[0].figures.seq_write.value')" ] &&
	awk -v v="$out" 'BEGIN { exit !(v > 0) }' && ok "sbresults.py figure and get: seq_write $out" ||
	bad "sbresults.py figure/get: $out"
sb_results get "$f" 'suites[0].figures.nope' 2>"$tmp/err" && bad "sbresults.py get of a missing key: exit 0" ||
	{ grep -q "no 'nope' in suites\[0\].figures" "$tmp/err" && ok "sbresults.py get names the missing step" ||
	  bad "sbresults.py get, missing key: $(cat "$tmp/err")"; }
sb_end
