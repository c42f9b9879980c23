#!/bin/bash
# The HTML report (stackbench report / compare --format html /
# build-and-test --report), checked in headless Chromium through the
# DevTools protocol on a pipe (tests/tools/report_check.py):
#  1. the five Helios4 results files (docs/helios4-results): screenshot of
#     the first screen, the table has five rows with the Helios4 columns and
#     units and reads exactly as `compare` prints it, every chart is there
#     with one labelled bar per stack and figure, the rows lead to named
#     results files, sorting works, the print layout fits an A4 page, and no
#     request left the page; `compare --format html` writes the same page;
#  2. the same with --columns and --baseline (compare's choices carry over);
#  3. a 20-stack matrix (copies of a golden file varied: repetitions,
#     per-layer figures, a figure bound by the machine, an outer host): under
#     2 MB, same checks, the per-layer tables and waterfalls present;
#  4. build-and-test --report on a real stack (tests/stacks/plain.yml: one
#     loop device -> ext4, no md/dm) writes a page that passes the same checks;
#  5. controls: a page with an <img> and a stylesheet from the network MUST be
#     caught by both the request log and the static check (so they can fail).
# Every page also passes the HTML5 strict parse (html5lib) and structural
# checks. Needs root (loop devices; Chromium runs with --no-sandbox).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_host_test report-html
root=$SB_ROOT
out=${SB_TEST_DIR:-$TMP}
py=/usr/bin/python3
chk="$root/tests/tools/report_check.py"
chromium=$(command -v chromium) || { fail "chromium is not installed (scripts/install-deps.sh installs it)"; exit; }
$py -c 'import html5lib' 2>/dev/null || { fail "python3-html5lib is not installed (scripts/install-deps.sh)"; exit; }
cd "$root" || exit

# expect NAME PAGE-ARGS...: compare's Markdown table with the same options,
# then what the page must show (tests/tools/report_check.py expect).
expect() {
	local name=$1 opts=() files=() pdf=
	shift
	[ "$1" = --pdf ] && { pdf=--pdf; shift; }
	while [ $# -gt 0 ]; do
		case "$1" in --columns|--baseline) opts+=("$1" "$2"); shift ;; *) files+=("$1") ;; esac
		shift
	done
	"$SB" -q compare --format markdown "${opts[@]}" "${files[@]}" >"$TMP/$name.md" || fail "$name: compare failed"
	$py "$chk" expect $pdf "$TMP/$name.md" "$TMP/$name.exp.json" "${files[@]}" || fail "$name: expectations"
}

# 1. Helios4: the directory, so the rows come in the order they were measured
# (the Helios4 table's); files named one by one keep the order given
[ "$(ls docs/helios4-results/*.json | wc -l)" -eq 5 ] || fail "expected five Helios4 results files"
h4=(docs/helios4-results)
"$SB" -q report -o "$out/helios4.html" "${h4[@]}" || fail "report on the Helios4 files failed"
"$SB" -q compare --format html "${h4[@]}" >"$TMP/helios4-compare.html" || fail "compare --format html failed"
cmp -s "$out/helios4.html" "$TMP/helios4-compare.html" || fail "compare --format html and report write different pages"
expect helios4 --pdf "${h4[@]}"
grep -q '"headers": \[' "$TMP/helios4.exp.json" &&
	$py - "$TMP/helios4.exp.json" <<'PY' || fail "the Helios4 table has not the Helios4 columns"
import json, sys
e = json.load(open(sys.argv[1]))
want = ["Setup", "LUKS sector size", "encryption", "write MB/s", "read-write MB/s", "read MB/s"]
# compare's own trailing "notes" column (n and footnotes) where the rows have notes
assert e["headers"][:6] == want and e["headers"][6:] in ([], ["notes"]), e["headers"]
assert len(e["rows"]) == 5, e["rows"]
assert set(e["charts"]) == {"chart-throughput", "chart-iops"}, e["charts"]
PY

# 2. compare's --columns and --baseline
"$SB" -q report -o "$out/helios4-baseline.html" --columns setup,cipher,write,read,seeks --baseline ext4 "${h4[@]}" ||
	fail "report --columns --baseline failed"
expect helios4-baseline --columns setup,cipher,write,read,seeks --baseline ext4 "${h4[@]}"

# 3. a 20-stack matrix, varied copies of a golden results file
mkdir -p "$TMP/matrix"
$py - "$TMP/matrix" docs/helios4-results/luks4096-2*.json tests/golden/rep/ext4-2runs.json <<'PY' || fail "generating the matrix"
import copy, json, sys
outdir, base, rep = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
quick = [s for s in rep["suites"] if s["suite"] == "quick"]
for i in range(20):
    r = copy.deepcopy(base)
    name = f"matrix-luks-{i:02d}"
    r["stack"]["name"] = r["stack"]["requested"]["name"] = name
    r["started"] = f"2026-12-01T10:{i:02d}:00Z"
    r["finished"] = f"2026-12-01T10:{i:02d}:59Z"
    bonnie = r["suites"][0]
    r["suites"] = []
    for k, f in enumerate((0.95, 1.0, 1.07)):
        s = copy.deepcopy(bonnie)
        s["repetition"] = k + 1
        for fig in s["figures"].values():
            fig["value"] = round(fig["value"] * (1 + i / 10) * f, 3)
        if i == 3:
            s["figures"]["block_input"]["bound_by_machine"] = True
        r["suites"].append(s)
    r["suites"] += copy.deepcopy(quick)
    if i % 2 == 0:
        r["host"]["outer"] = {"hostname": "outer-host", "cpu_model": "Example CPU", "cores": 2,
                              "ram_bytes": 4294967296, "kernel": "6.1.0-test"}
    if i % 4 == 0:
        r["per_layer"] = [
            {"order": 1, "layer": "loop", "device": "/dev/ubda",
             "figures": {"seq_write_mbs": 500.1, "seq_read_mbs": 900.2, "randread_4k_iops": 12000},
             "expected": {"seq_write_mbs": None, "seq_read_mbs": None, "randread_4k_iops": None},
             "pct_of_below": {"seq_write_mbs": None, "seq_read_mbs": None, "randread_4k_iops": None},
             "limit": "loop: the members are the limit"},
            {"order": 1, "layer": "loop", "device": "/dev/ubdb",
             "figures": {"seq_write_mbs": 490.0, "seq_read_mbs": 910.0, "randread_4k_iops": None},
             "expected": {"seq_write_mbs": None, "seq_read_mbs": None, "randread_4k_iops": None},
             "pct_of_below": {"seq_write_mbs": None, "seq_read_mbs": None, "randread_4k_iops": None},
             },
            {"order": 2, "layer": "md", "device": "/dev/md127",
             "figures": {"seq_write_mbs": 470.0, "seq_read_mbs": 880.0, "randread_4k_iops": 11000},
             "expected": {"seq_write_mbs": 490, "seq_read_mbs": 910, "randread_4k_iops": None},
             "pct_of_below": {"seq_write_mbs": 96, "seq_read_mbs": 97, "randread_4k_iops": 92},
             "limit": "md: 470 of 490 MB/s (96 %): the slowest member is the limit"},
            {"order": 3, "layer": "luks", "device": "/dev/mapper/sb-x",
             "figures": {"seq_write_mbs": 183.0, "seq_read_mbs": 190.0,
                         "randread_4k_iops": 9000},
             "expected": {"seq_write_mbs": 190, "seq_read_mbs": 200, "randread_4k_iops": None},
             "pct_of_below": {"seq_write_mbs": 39, "seq_read_mbs": 22, "randread_4k_iops": 82},
             "limit": "luks: 183 of 190 MB/s cipher ceiling (96 %): the cipher is the limit"}]
    json.dump(r, open(f"{outdir}/{name}-20261201T10{i:02d}00Z.json", "w"), indent=1)
PY
"$SB" -q report -o "$out/matrix.html" "$TMP/matrix" || fail "report on the 20-stack matrix failed"
size=$(stat -c %s "$out/matrix.html" 2>/dev/null || echo 0)
echo "20-stack matrix report: $size bytes"
[ "$size" -gt 0 ] && [ "$size" -lt 2000000 ] || fail "20-stack matrix report is $size bytes, not under 2 MB"
expect matrix "$TMP/matrix"
grep -q '"chart-latency"' "$TMP/matrix.exp.json" || fail "matrix: the latency chart is not exercised"
grep -q 'bound by the machine, not the stack' "$out/matrix.html" || fail "matrix: bound_by_machine figure not marked"
grep -q 'outer host' "$out/matrix.html" || fail "matrix: host.outer not shown"
grep -q 'luks: 183 of 190 MB/s cipher ceiling' "$out/matrix.html" || fail "matrix: per-layer limit line missing"
grep -q 'Per layer' "$out/helios4.html" && fail "helios4: a per-layer section without per_layer in the results"

# 4. build-and-test --report on a real stack
# (its own state directory: the run leaves the empty mount parent there)
if STACKBENCH_STATE_DIR=$TMP/state "$SB" -q --no-progress build-and-test tests/stacks/plain.yml --set "devices.loop.dir=$TMP/work" \
	--set bench.size=8MiB --set bench.runtime=1s --results "$TMP/res" --report "$out/run.html" >"$TMP/bt.out" 2>&1; then
	[ -s "$out/run.html" ] || fail "build-and-test --report wrote no page"
	expect run "$TMP/res"
else
	fail "build-and-test --report failed: $(tail -3 "$TMP/bt.out")"
fi

# 5. the controls: a page that reaches the network
cat >"$TMP/control.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>control</title>
<link rel="stylesheet" href="https://192.0.2.1/sb-control.css"></head>
<body><p>control</p><img src="http://192.0.2.1/sb-control.png" alt="x"></body></html>
EOF
if $py "$chk" static "$TMP/control.html" >"$TMP/control.static" 2>&1; then
	fail "the static check did not catch the control page's network references"
fi

# static checks of every page, then the browser
for p in "$out/helios4.html" "$out/helios4-baseline.html" "$out/matrix.html" "$out/run.html"; do
	[ -s "$p" ] && { $py "$chk" static "$p" || fail "$(basename "$p"): static HTML5 checks"; }
done
cases=()
for n in helios4 helios4-baseline matrix run; do
	[ -s "$out/$n.html" ] && [ -s "$TMP/$n.exp.json" ] && cases+=(--case "$n=$out/$n.html=$TMP/$n.exp.json")
done
timeout 300 $py "$chk" browser --chromium "$chromium" --out "$out" --control "network=$TMP/control.html" \
	"${cases[@]}" || fail "browser checks"
[ -s "$out/helios4.png" ] && echo "screenshot of the Helios4 report: $out/helios4.png"
exit
