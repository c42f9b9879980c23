#!/bin/bash
# bench.per_layer (on by default in build-and-test): luks4096 in the
# throwaway kernel gets every layer measured as it is built (two members,
# the md array, the dm-crypt mapping, in that order), the results carry the
# documented shape, and `compare --per-layer` shows every layer with its
# device and figures, the luks layer being the largest drop in sequential
# read; the waterfall chart is written. bench.per_layer: false turns it off.
set -uo pipefail
root=${SB_ROOT:?run me through tests/integration/run.sh}
bin=${STACKBENCH_BIN:?}
dir=${SB_TEST_DIR:?}
export TMPDIR=$dir/tmp STACKBENCH_UML_MEM=512M STACKBENCH_SANDBOX_RECORDS=$dir/records
mkdir -p "$TMPDIR"
errors=0
fail() { echo "FAIL: $*"; errors=$((errors + 1)); }
sets=(--set devices.loop.size=192MiB --set "devices.loop.dir=$dir/loops" --set bench.size=16MiB
      --set 'bench.suites=[dd]')
"$bin" build-and-test --results "$dir/res" "${sets[@]}" "$root/stacks/luks4096.yml" \
	> "$dir/bt.out" 2> "$dir/bt.err" || fail "build-and-test: $(tail -5 "$dir/bt.err")"
res=$(ls "$dir"/res/luks4096-*.json 2>/dev/null | head -1)
[ -n "$res" ] || { fail "no results file"; exit 1; }
python3 - "$res" <<'PY' || fail "per_layer in the results (above)"
import json, sys
rows = json.load(open(sys.argv[1])).get("per_layer")
bad = []
if not rows: bad.append("no per_layer rows")
else:
    want = [("loop", "/dev/ubda"), ("loop", "/dev/ubdb"), ("md", None), ("luks", "/dev/mapper/sb-luks4096-crypt")]
    got = [(r["layer"], r["device"]) for r in rows]
    if [g[0] for g in got] != [w[0] for w in want]: bad.append("layers %r" % got)
    for (l, d), r in zip(want, rows):
        if d and r["device"] != d: bad.append("%s device %r, expected %r" % (l, r["device"], d))
    if [r["order"] for r in rows] != list(range(1, len(rows) + 1)): bad.append("order %r" % [r["order"] for r in rows])
    keys = {"seq_write_mbs", "seq_read_mbs", "randread_4k_iops"}
    for r in rows:
        if set(r) < {"order", "layer", "device", "figures", "expected", "pct_of_below", "limit"}: bad.append("keys %r" % sorted(r))
        for part in ("figures", "expected", "pct_of_below"):
            if set(r[part]) - {"note"} != keys: bad.append("%s %s keys %r" % (r["layer"], part, sorted(r[part])))
        if any(r["figures"].get(k) is None for k in keys): bad.append("%s: a figure is missing: %r" % (r["layer"], r["figures"]))
        if not r["limit"].startswith(r["layer"] + ": "): bad.append("limit %r" % r["limit"])
    md, luks = rows[2], rows[3]
    if md["expected"]["seq_write_mbs"] != round(min(rows[0]["figures"]["seq_write_mbs"], rows[1]["figures"]["seq_write_mbs"]), 1):
        bad.append("md expected write %r is not the slowest member" % md["expected"]["seq_write_mbs"])
    if luks["expected"]["seq_read_mbs"] is None: bad.append("luks has no expected seq read")
    ps = luks.get("cipher_per_sector") or {}
    if not (ps.get("sector_512_mbs", 0) > 0 and ps.get("sector_4096_mbs", 0) > 0):
        bad.append("luks: no per-sector AF_ALG figures: %r" % ps)
    else:
        print("cipher per sector (AF_ALG): 512 %.1f, 4096 %.1f MB/s, ratio %.2f" % (ps["sector_512_mbs"], ps["sector_4096_mbs"], ps["ratio_4096_to_512"]))
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
"$bin" compare --per-layer --format csv "$res" > "$dir/pl.csv" 2> "$dir/pl.err" || fail "compare --per-layer: $(cat "$dir/pl.err")"
python3 - "$dir/pl.csv" <<'PY' || fail "compare --per-layer table (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = []
for col in ("layer", "device", "seq write MB/s", "seq read MB/s", "4k randread IOPS", "% of the layer below", "expected", "% of expected"):
    if rows and col not in rows[0]: bad.append("no column %r" % col)
if [r["layer"] for r in rows] != ["loop", "loop", "md", "luks"]: bad.append("rows %r" % [r.get("layer") for r in rows])
drops = {}
for r in rows:
    p = r["% of the layer below"].split(" / ")[1]
    if p != "-": drops[r["layer"]] = float(p.rstrip("%"))
if not drops or min(drops, key=drops.get) != "luks": bad.append("luks is not the largest drop in seq read: %r" % drops)
else: print("seq read, %% of the layer below: %r" % drops)
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
"$bin" compare --per-layer --chart "$dir/wf.svg" "$res" > "$dir/pl.txt" || fail "compare --per-layer --chart"
grep -q "<svg" "$dir/wf.svg" 2>/dev/null || fail "no waterfall chart written"
grep -q "^luks4096 luks (/dev/mapper/sb-luks4096-crypt): " "$dir/pl.txt" || fail "no limit line for luks: $(cat "$dir/pl.txt")"
# Off with bench.per_layer: false.
"$bin" build-and-test --results "$dir/res2" "${sets[@]}" --set bench.per_layer=false "$root/stacks/luks4096.yml" \
	> /dev/null 2> "$dir/bt2.err" || fail "build-and-test per_layer=false: $(tail -3 "$dir/bt2.err")"
grep -q '"per_layer": \[' "$dir"/res2/*.json && fail "bench.per_layer: false still measured the layers"
grep -q "per-layer:" "$dir/bt2.err" && fail "bench.per_layer: false still logged per-layer jobs"
exit $((errors > 0))
